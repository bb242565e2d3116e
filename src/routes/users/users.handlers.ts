import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import * as queries from "./users.queries";
import type * as routes from "./users.routes";

export const listUsers: AppRouteHandler<typeof routes.listUsers> = async (c) => {
  const { limit, cursor, role, email } = c.req.valid("query");
  const rows = await queries.listUsers(c.var.db, { after: cursor, role, email }, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (u) => u.id);
  return c.json({ users: items, next_cursor: nextCursor }, 200);
};

export const createUser: AppRouteHandler<typeof routes.createUser> = async (c) => {
  const user = await queries.createUser(c.var.db, c.req.valid("json"));
  c.header("Location", `/v1/users/${user.id}`);
  return c.json(user, 201);
};

export const getUser: AppRouteHandler<typeof routes.getUser> = async (c) =>
  c.json(queries.serializeUser(await queries.getUserRow(c.var.db, c.req.valid("param").id)), 200);

export const updateUser: AppRouteHandler<typeof routes.updateUser> = async (c) =>
  c.json(await queries.updateUser(c.var.db, c.req.valid("param").id, c.req.valid("json")), 200);

export const deleteUser: AppRouteHandler<typeof routes.deleteUser> = async (c) => {
  await queries.deleteUser(c.var.db, c.req.valid("param").id);
  return c.body(null, 204);
};
