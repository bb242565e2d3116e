import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import type * as routes from "./users.routes";
import * as service from "./users.service";

export const listUsers: AppRouteHandler<typeof routes.listUsers> = async (c) => {
  const { limit, cursor, role, email } = c.req.valid("query");
  const rows = await service.listUsers(c.var.db, { after: cursor, role, email }, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (u) => u.id);
  return c.json({ users: items, next_cursor: nextCursor }, 200);
};

export const createUser: AppRouteHandler<typeof routes.createUser> = async (c) => {
  const user = await service.createUser(c.var.db, c.var.wakeUps, c.req.valid("json"));
  c.header("Location", `/v1/users/${user.id}`);
  return c.json(user, 201);
};

export const getUser: AppRouteHandler<typeof routes.getUser> = async (c) =>
  c.json(service.serializeUser(await service.getUserRow(c.var.db, c.req.valid("param").id)), 200);

export const updateUser: AppRouteHandler<typeof routes.updateUser> = async (c) =>
  c.json(await service.updateUser(c.var.db, c.var.wakeUps, c.req.valid("param").id, c.req.valid("json")), 200);

export const deleteUser: AppRouteHandler<typeof routes.deleteUser> = async (c) => {
  await service.deleteUser(c.var.db, c.var.wakeUps, c.req.valid("param").id);
  return c.body(null, 204);
};
