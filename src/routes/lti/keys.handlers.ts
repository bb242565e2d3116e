import type { AppRouteHandler } from "../../lib/openapi";
import { publicKeySet, rotateKeys as rotate } from "../../lti/keys";
import type * as routes from "./keys.routes";

export const rotateKeys: AppRouteHandler<typeof routes.rotateKeys> = async (c) => c.json(await rotate(c.env, c.var.db), 200);

export const jwks: AppRouteHandler<typeof routes.jwks> = async (c) => {
  // Cached a minute at most: a rotation's new key signs at once, and a platform holding an older
  // set must see it soon (most fetch the set again for an unknown kid anyway).
  c.header("Cache-Control", "public, max-age=60");
  return c.json(await publicKeySet(c.env, c.var.db), 200);
};
