import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { idSchema } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonResponse } from "../../lib/openapi";
import { pageQuery } from "../../lib/pagination";
import { Event, EventPage, EventType, Redeliver, Redelivery } from "./events.schemas";

const tags = ["Events"];
const Params = z.object({ id: idSchema("event") });

export const listEvents = defineRoute({
  operationId: "listEvents",
  method: "get",
  path: "/",
  tags,
  ...scoped("events:read"),
  summary: "List events, newest first",
  description:
    "Every change the API made, newest first by (`created_at`, `id`), kept 30 days. An event is listed as soon as its change is answered. Filter with `type`; pass `next_cursor` back as `cursor` until it is null.",
  request: { query: z.strictObject({ ...pageQuery("event"), type: EventType.optional() }) },
  responses: { 200: jsonResponse(EventPage, "A page of events."), ...errorResponses(400, ...COMMON_ERRORS) },
});

export const getEvent = defineRoute({
  operationId: "getEvent",
  method: "get",
  path: "/{id}",
  tags,
  ...scoped("events:read"),
  summary: "Get an event",
  description: "The event as webhooks deliver it.",
  request: { params: Params },
  responses: { 200: jsonResponse(Event, "The event."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const redeliverEvent = defineRoute({
  operationId: "redeliverEvent",
  method: "post",
  path: "/{id}/redeliver",
  tags,
  ...scoped("webhooks:write", idempotent()),
  summary: "Deliver an event again",
  description:
    "Queues a fresh delivery of the event (same `webhook-id`, a fresh retry schedule, attempts recorded under this redelivery's number) to one endpoint, or without `endpoint_id` to every enabled endpoint subscribed to its type; each endpoint once, and only the caller's own endpoints (admin: any). The body is optional. An unknown event, or an endpoint that is unknown or not the caller's → 404; a disabled or unsubscribed endpoint → 409 endpoint_not_subscribed; more than 5 redeliveries of one event within an hour → 429 redelivery_limited, with Retry-After.",
  request: {
    params: Params,
    body: { required: false, content: { "application/json": { schema: Redeliver } } },
  },
  responses: {
    202: jsonResponse(Redelivery, "The deliveries are queued."),
    ...errorResponses(...BODY_ERRORS, 404, 409, ...COMMON_ERRORS),
  },
});
