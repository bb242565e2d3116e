import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import type * as routes from "./accommodations.routes";
import * as service from "./accommodations.service";

export const listAccommodations: AppRouteHandler<typeof routes.listAccommodations> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await service.listAccommodations(c.var.db, c.req.valid("param").id, cursor, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (a) => a.user_id);
  return c.json({ accommodations: items, next_cursor: nextCursor }, 200);
};

export const putAccommodation: AppRouteHandler<typeof routes.putAccommodation> = async (c) => {
  const { id, user_id } = c.req.valid("param");
  return c.json(await service.putAccommodation(c.var.db, id, user_id, c.req.valid("json")), 200);
};

export const deleteAccommodation: AppRouteHandler<typeof routes.deleteAccommodation> = async (c) => {
  const { id, user_id } = c.req.valid("param");
  await service.deleteAccommodation(c.var.db, id, user_id);
  return c.body(null, 204);
};
