import type { AppRouteHandler } from "../../lib/openapi";
import type * as routes from "./service.routes";

/** GET /: the JSON answer, naming the app it is given. */
export const serviceIndex =
  (about: { name: string; version: string }): AppRouteHandler<typeof routes.serviceIndex> =>
  (c) =>
    c.json({ name: about.name, version: about.version, docs: "/docs", openapi: "/openapi.json" }, 200);
