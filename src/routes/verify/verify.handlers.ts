import { ApiError } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/openapi";
import type * as routes from "./verify.routes";

export const verify: AppRouteHandler<typeof routes.verify> = (c) => {
  const credential = c.get("credential");
  if (!credential) throw new ApiError("unauthorized", "No credential.");
  const { type, id, scopes, expires_at } = credential;
  return c.json(
    { status: "success" as const, message: "Authentication successful" as const, credential: { type, id, scopes, expires_at } },
    200,
  );
};
