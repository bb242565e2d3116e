import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import type * as routes from "./api-keys.routes";
import { DEFAULT_ROTATION_GRACE_SECONDS } from "./api-keys.schemas";
import * as service from "./api-keys.service";

export const listApiKeys: AppRouteHandler<typeof routes.listApiKeys> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await service.listApiKeys(c.var.db, cursor, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (k) => k.id);
  return c.json({ api_keys: items, next_cursor: nextCursor }, 200);
};

export const createApiKey: AppRouteHandler<typeof routes.createApiKey> = async (c) => {
  const created = await service.createApiKey(c.var.db, c.var.wakeUps, c.req.valid("json"));
  c.header("Location", `/v1/api-keys/${created.id}`);
  return c.json(created, 201);
};

export const getApiKey: AppRouteHandler<typeof routes.getApiKey> = async (c) =>
  c.json(service.serializeApiKey(await service.getApiKeyRow(c.var.db, c.req.valid("param").id)), 200);

export const rotateApiKey: AppRouteHandler<typeof routes.rotateApiKey> = async (c) => {
  // The body is optional: without one the validator is skipped and the default grace applies.
  const grace = (c.req.valid("json") as { grace_seconds?: number } | undefined)?.grace_seconds;
  const created = await service.rotateApiKey(
    c.var.db,
    c.var.wakeUps,
    c.env.KV,
    c.req.valid("param").id,
    grace ?? DEFAULT_ROTATION_GRACE_SECONDS,
  );
  c.header("Location", `/v1/api-keys/${created.id}`);
  return c.json(created, 201);
};

export const revokeApiKey: AppRouteHandler<typeof routes.revokeApiKey> = async (c) => {
  await service.revokeApiKey(c.var.db, c.var.wakeUps, c.env.KV, c.req.valid("param").id);
  return c.body(null, 204);
};

export const getApiKeyUsage: AppRouteHandler<typeof routes.getApiKeyUsage> = async (c) =>
  c.json(await service.getUsage(c.var.db, c.req.valid("param").id), 200);
