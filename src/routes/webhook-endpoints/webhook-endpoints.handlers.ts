import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { type Viewer, viewerOf } from "../../events/endpoints";
import { ApiError } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import type * as routes from "./webhook-endpoints.routes";
import { DEFAULT_SECRET_GRACE_SECONDS } from "./webhook-endpoints.schemas";
import * as service from "./webhook-endpoints.service";

/** The caller, whose endpoints these are (the /v1 guard has answered 401 for a request without one). */
function viewer(c: Context<AppEnv>): Viewer {
  const credential = c.get("credential");
  if (!credential) throw new ApiError("unauthorized", "No credential.");
  return viewerOf(credential);
}

export const listWebhookEndpoints: AppRouteHandler<typeof routes.listWebhookEndpoints> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await service.listEndpoints(c.var.db, viewer(c), cursor, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (endpoint) => endpoint.id);
  return c.json({ webhook_endpoints: items, next_cursor: nextCursor }, 200);
};

export const createWebhookEndpoint: AppRouteHandler<typeof routes.createWebhookEndpoint> = async (c) => {
  const created = await service.createEndpoint(c.env, c.var.db, viewer(c), c.req.valid("json"));
  c.header("Location", `/v1/webhook-endpoints/${created.id}`);
  return c.json(created, 201);
};

export const getWebhookEndpoint: AppRouteHandler<typeof routes.getWebhookEndpoint> = async (c) =>
  c.json(await service.getEndpoint(c.var.db, viewer(c), c.req.valid("param").id), 200);

export const updateWebhookEndpoint: AppRouteHandler<typeof routes.updateWebhookEndpoint> = async (c) =>
  c.json(await service.updateEndpoint(c.env, c.var.db, viewer(c), c.req.valid("param").id, c.req.valid("json")), 200);

export const deleteWebhookEndpoint: AppRouteHandler<typeof routes.deleteWebhookEndpoint> = async (c) => {
  await service.deleteEndpoint(c.var.db, viewer(c), c.req.valid("param").id);
  return c.body(null, 204);
};

export const rotateWebhookSecret: AppRouteHandler<typeof routes.rotateWebhookSecret> = async (c) => {
  // The body is optional: without one, the default grace.
  const grace = (c.req.valid("json") as { grace_seconds?: number } | undefined)?.grace_seconds;
  const id = c.req.valid("param").id;
  return c.json(await service.rotateSecret(c.env, c.var.db, viewer(c), id, grace ?? DEFAULT_SECRET_GRACE_SECONDS), 200);
};

export const listDeliveries: AppRouteHandler<typeof routes.listDeliveries> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await service.listDeliveries(c.var.db, viewer(c), c.req.valid("param").id, cursor, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (delivery) => delivery.id);
  return c.json({ deliveries: items, next_cursor: nextCursor }, 200);
};

export const sendTestEvent: AppRouteHandler<typeof routes.sendTestEvent> = async (c) =>
  c.json(await service.sendTestEvent(c.env, c.var.db, viewer(c), c.req.valid("param").id), 202);
