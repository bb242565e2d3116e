import type { Context } from "hono";
import type { AppEnv, Credential } from "../../env";
import { ApiError } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import type * as routes from "./jobs.routes";
import * as service from "./jobs.service";

/** The caller (the /v1 guard has answered 401 for a request without one). */
function caller(c: Context<AppEnv>): Credential {
  const credential = c.get("credential");
  if (!credential) throw new ApiError("unauthorized", "No credential.");
  return credential;
}

export const getJob: AppRouteHandler<typeof routes.getJob> = async (c) =>
  c.json(await service.getJob(c.var.db, c.req.valid("param").id, caller(c)), 200);

export const listJobChanges: AppRouteHandler<typeof routes.listJobChanges> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await service.listJobChanges(c.var.db, c.req.valid("param").id, caller(c), cursor, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (change) => change.submission_id);
  return c.json({ changes: items, next_cursor: nextCursor }, 200);
};
