import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import type * as routes from "./platforms.routes";
import * as service from "./platforms.service";

export const listPlatforms: AppRouteHandler<typeof routes.listPlatforms> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await service.listPlatforms(c.var.db, cursor, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (platform) => platform.id);
  return c.json({ platforms: items, next_cursor: nextCursor }, 200);
};

export const createPlatform: AppRouteHandler<typeof routes.createPlatform> = async (c) => {
  const platform = await service.createPlatform(c.env, c.var.db, c.req.valid("json"));
  c.header("Location", `/v1/lti/platforms/${platform.id}`);
  return c.json(platform, 201);
};

export const getPlatform: AppRouteHandler<typeof routes.getPlatform> = async (c) =>
  c.json(await service.getPlatform(c.var.db, c.req.valid("param").id), 200);

export const updatePlatform: AppRouteHandler<typeof routes.updatePlatform> = async (c) =>
  c.json(await service.updatePlatform(c.env, c.var.db, c.req.valid("param").id, c.req.valid("json")), 200);

export const deletePlatform: AppRouteHandler<typeof routes.deletePlatform> = async (c) => {
  await service.deletePlatform(c.var.db, c.req.valid("param").id);
  return c.body(null, 204);
};
