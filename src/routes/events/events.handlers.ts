import { viewerOf } from "../../events/endpoints";
import { ApiError } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import type * as routes from "./events.routes";
import * as service from "./events.service";

export const listEvents: AppRouteHandler<typeof routes.listEvents> = async (c) => {
  const { limit, cursor, type } = c.req.valid("query");
  const rows = await service.listEvents(c.var.db, { before: cursor, type }, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (event) => event.id);
  return c.json({ events: items, next_cursor: nextCursor }, 200);
};

export const getEvent: AppRouteHandler<typeof routes.getEvent> = async (c) =>
  c.json(await service.getEvent(c.var.db, c.req.valid("param").id), 200);

export const redeliverEvent: AppRouteHandler<typeof routes.redeliverEvent> = async (c) => {
  // The body is optional: without one there is nothing validated.
  const endpointId = (c.req.valid("json") as { endpoint_id?: string } | undefined)?.endpoint_id;
  const credential = c.get("credential");
  if (!credential) throw new ApiError("unauthorized", "No credential.");
  return c.json(await service.redeliver(c.env, c.var.db, viewerOf(credential), c.req.valid("param").id, endpointId), 202);
};
