import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import type * as routes from "./oauth-clients.routes";
import * as queries from "./oauth-clients.service";

export const listClients: AppRouteHandler<typeof routes.listClients> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await queries.listClients(c.var.db, cursor, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (k) => k.id);
  return c.json({ oauth_clients: items, next_cursor: nextCursor }, 200);
};

export const createClient: AppRouteHandler<typeof routes.createClient> = async (c) => {
  const created = await queries.createClient(c.var.db, c.var.wakeUps, c.req.valid("json"));
  c.header("Location", `/v1/oauth-clients/${created.id}`);
  return c.json(created, 201);
};

export const getClient: AppRouteHandler<typeof routes.getClient> = async (c) =>
  c.json(await queries.getClient(c.var.db, c.req.valid("param").id), 200);

export const rotateSecret: AppRouteHandler<typeof routes.rotateSecret> = async (c) =>
  c.json(await queries.rotateSecret(c.var.db, c.var.wakeUps, c.env, c.req.valid("param").id), 200);

export const deleteClient: AppRouteHandler<typeof routes.deleteClient> = async (c) => {
  await queries.deleteClient(c.var.db, c.var.wakeUps, c.env, c.req.valid("param").id);
  return c.body(null, 204);
};
