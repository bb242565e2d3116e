import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { idParam } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { pageQuery } from "../../lib/pagination";
import {
  DeliveryPage,
  ENDPOINT_PATCHED_EXAMPLE,
  ENDPOINT_ROTATED_EXAMPLE,
  SecretRotate,
  TestEventSent,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointPage,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
} from "./webhook-endpoints.schemas";

const tags = ["Webhooks"];
// The former prefix (we_…) still names the same endpoint.
const Params = z.object({ id: idParam("webhookEndpoint") });
/** Said of every operation on one endpoint. */
const OWNED = "Only the credential that created the endpoint (or admin) sees it; to any other it does not exist (404).";

export const listWebhookEndpoints = defineRoute({
  operationId: "listWebhookEndpoints",
  method: "get",
  path: "/",
  tags,
  ...scoped("webhooks:write"),
  summary: "List webhook endpoints",
  description:
    "The endpoints this credential created (an API key's include those of the keys it was rotated from; admin sees every endpoint), oldest first, never their secrets. Pass `next_cursor` back as `cursor` until it is null.",
  request: { query: z.strictObject(pageQuery("webhookEndpoint")) },
  responses: { 200: jsonResponse(WebhookEndpointPage, "A page of endpoints."), ...errorResponses(400, ...COMMON_ERRORS) },
});

export const createWebhookEndpoint = defineRoute({
  operationId: "createWebhookEndpoint",
  method: "post",
  path: "/",
  tags,
  ...scoped("webhooks:write", idempotent()),
  summary: "Create a webhook endpoint; its secret is shown once",
  description:
    "Events of the subscribed types are POSTed to `url`, signed per Standard Webhooks with the `secret` this answer shows once. The endpoint belongs to the calling credential: only it and admin see or change it. An unsafe URL → 400; more than 100 endpoints → 409.",
  request: jsonBody(WebhookEndpointCreate),
  responses: {
    201: jsonResponse(WebhookEndpointWithSecret, "The endpoint, with its signing secret shown this once."),
    ...errorResponses(...BODY_ERRORS, 409, 503, ...COMMON_ERRORS),
  },
});

export const getWebhookEndpoint = defineRoute({
  operationId: "getWebhookEndpoint",
  method: "get",
  path: "/{id}",
  tags,
  ...scoped("webhooks:write"),
  summary: "Get a webhook endpoint",
  description: `The endpoint, never its secret. ${OWNED}`,
  request: { params: Params },
  responses: { 200: jsonResponse(WebhookEndpoint, "The endpoint."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const updateWebhookEndpoint = defineRoute({
  operationId: "updateWebhookEndpoint",
  method: "patch",
  path: "/{id}",
  tags,
  ...scoped("webhooks:write"),
  summary: "Update a webhook endpoint",
  description: `Sets the fields sent. \`enabled: true\` re-enables an endpoint disabled after failing, with a fresh failure clock. ${OWNED}`,
  request: { params: Params, ...jsonBody(WebhookEndpointPatch) },
  responses: {
    200: jsonResponse(WebhookEndpoint, "The endpoint as updated.", ENDPOINT_PATCHED_EXAMPLE),
    ...errorResponses(...BODY_ERRORS, 404, ...COMMON_ERRORS),
  },
});

export const deleteWebhookEndpoint = defineRoute({
  operationId: "deleteWebhookEndpoint",
  method: "delete",
  path: "/{id}",
  tags,
  ...scoped("webhooks:write"),
  summary: "Delete a webhook endpoint",
  description: `Deletes the endpoint and its delivery records; deliveries already queued are dropped. ${OWNED}`,
  request: { params: Params },
  responses: { 204: { description: "Deleted." }, ...errorResponses(404, ...COMMON_ERRORS) },
});

export const rotateWebhookSecret = defineRoute({
  operationId: "rotateWebhookSecret",
  method: "post",
  path: "/{id}/rotate-secret",
  tags,
  ...scoped("webhooks:write", idempotent()),
  summary: "Rotate an endpoint's signing secret",
  description: `Makes a new secret, shown once; the old one keeps signing beside it (two signatures in \`webhook-signature\`) for \`grace_seconds\` (default 86400). At most two secrets live: rotating again ends the previous grace. The body is optional. ${OWNED}`,
  request: {
    params: Params,
    body: { required: false, content: { "application/json": { schema: SecretRotate } } },
  },
  responses: {
    200: jsonResponse(WebhookEndpointWithSecret, "The endpoint with its new secret, shown this once.", ENDPOINT_ROTATED_EXAMPLE),
    ...errorResponses(...BODY_ERRORS, 404, 503, ...COMMON_ERRORS),
  },
});

export const listDeliveries = defineRoute({
  operationId: "listWebhookDeliveries",
  method: "get",
  path: "/{id}/deliveries",
  tags,
  ...scoped("webhooks:write"),
  summary: "List an endpoint's delivery attempts, newest first",
  description: `One record per attempt — per (event, redelivery, attempt), however often the queue hands a message over: its status, the receiver's HTTP status, how long it took, the error, and when the next attempt is due. Kept 30 days. ${OWNED}`,
  request: { params: Params, query: z.strictObject(pageQuery("delivery")) },
  responses: { 200: jsonResponse(DeliveryPage, "A page of delivery attempts."), ...errorResponses(400, 404, ...COMMON_ERRORS) },
});

export const sendTestEvent = defineRoute({
  operationId: "sendWebhookTestEvent",
  method: "post",
  path: "/{id}/test",
  tags,
  ...scoped("webhooks:write", idempotent()),
  summary: "Send the endpoint a test event",
  description: `Records a \`webhook_endpoint.test\` event (its \`data.object\` the endpoint, URL origin only) and delivers it to this endpoint only, whatever types it subscribes to, signed like any event; the attempt and any retries are recorded under its deliveries. No body. A disabled endpoint → 409 endpoint_disabled; more than 5 test events to one endpoint within an hour (whoever asks) → 429 test_event_limited, with Retry-After. ${OWNED}`,
  request: { params: Params },
  responses: {
    202: jsonResponse(TestEventSent, "The test event is recorded and its delivery queued."),
    ...errorResponses(404, 409, ...COMMON_ERRORS),
  },
});
