import { z } from "@hono/zod-openapi";
import { EVENT_SUBSCRIPTIONS } from "../../domain/events";
import { idSchema } from "../../lib/ids";
import { pageExample } from "../../lib/openapi";
import { nextCursorSchema } from "../../lib/pagination";
import { singleLineText } from "../../lib/text";

export const DEFAULT_SECRET_GRACE_SECONDS = 86_400;
const MAX_SECRET_GRACE_SECONDS = 30 * 86_400;
/** The longest URL an endpoint may have. */
const MAX_URL_LENGTH = 2048;

const Url = z.string().min(1).max(MAX_URL_LENGTH).openapi({
  format: "uri",
  description:
    "Where events are POSTed: https only, no user name or password, no private, loopback or link-local address or internal name (docs/webhooks.md).",
  example: "https://hooks.example.com/quiz-events",
});

const Subscriptions = z
  .array(z.enum(EVENT_SUBSCRIPTIONS))
  .min(1)
  .max(EVENT_SUBSCRIPTIONS.length)
  .refine((types) => new Set(types).size === types.length, { message: "Event types must be unique." })
  .openapi({ uniqueItems: true, description: 'Event types to receive, or ["*"] for all.', example: ["submission.graded"] });

export const WebhookEndpointCreate = z
  .strictObject({
    url: Url,
    events: Subscriptions,
    description: singleLineText(500, 0).default("").openapi({ example: "Gradebook sync" }),
    enabled: z.boolean().default(true),
  })
  .openapi("WebhookEndpointCreate", {
    example: { url: "https://hooks.example.com/quiz-events", events: ["submission.graded"], description: "Gradebook sync" },
  });

export const WebhookEndpointPatch = z
  .strictObject({
    url: Url.optional(),
    events: Subscriptions.optional(),
    description: singleLineText(500, 0).optional(),
    enabled: z.boolean().optional().openapi({ description: "true re-enables an endpoint that was disabled after failing." }),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { message: "Send at least one field." })
  .openapi("WebhookEndpointPatch", { example: { events: ["submission.graded", "submission.regraded"] } });

export const SecretRotate = z
  .strictObject({
    grace_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_SECRET_GRACE_SECONDS)
      .default(DEFAULT_SECRET_GRACE_SECONDS)
      .openapi({ description: "How long the old secret keeps signing beside the new one." }),
  })
  .openapi("WebhookSecretRotate", { example: { grace_seconds: 3600 } });

/** WebhookEndpointCreate's example as the API answers it, without its secret. */
const ENDPOINT_EXAMPLE = {
  id: "whe_01kamz3f7c9n0p8s6e5vwx2y4r",
  url: "https://hooks.example.com/quiz-events",
  description: "Gradebook sync",
  events: ["submission.graded"],
  enabled: true,
  disabled_at: null,
  created_at: "2026-11-20T09:00:00.000Z",
  updated_at: "2026-11-20T09:00:00.000Z",
};

export const WebhookEndpoint = z
  .object({
    id: idSchema("webhookEndpoint"),
    url: z.string(),
    description: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    disabled_at: z
      .string()
      .datetime()
      .nullable()
      .openapi({ description: "When it was disabled after failing every attempt for WEBHOOK_DISABLE_AFTER_SECONDS." }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi("WebhookEndpoint", { example: ENDPOINT_EXAMPLE });

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().openapi({
    description: "The signing secret (`whsec_` + base64), shown only in this answer.",
    example: "whsec_mvGHTnBweizdKzKcbViLIBvy67cXC1QgW1k9dsZvJEo=",
  }),
}).openapi("WebhookEndpointWithSecret", {
  example: { ...ENDPOINT_EXAMPLE, secret: "whsec_mvGHTnBweizdKzKcbViLIBvy67cXC1QgW1k9dsZvJEo=" },
});

/** The endpoint after PATCH's example (its events), or with the secret that rotation's example made. */
export const ENDPOINT_PATCHED_EXAMPLE = {
  ...ENDPOINT_EXAMPLE,
  events: ["submission.graded", "submission.regraded"],
  updated_at: "2026-11-23T09:30:00.000Z",
};
export const ENDPOINT_ROTATED_EXAMPLE = {
  ...ENDPOINT_EXAMPLE,
  updated_at: "2026-11-23T09:30:00.000Z",
  secret: "whsec_knM047qyYwa+DsQiQeljxMYWs0YLQBcOw/O1P5XsCa8=",
};

export const WebhookEndpointPage = z
  .object({ webhook_endpoints: z.array(WebhookEndpoint), next_cursor: nextCursorSchema })
  .openapi({ example: pageExample("webhook_endpoints", [ENDPOINT_EXAMPLE], ENDPOINT_EXAMPLE.id) });

const Delivery = z
  .object({
    id: idSchema("delivery"),
    event_id: idSchema("event"),
    endpoint_id: idSchema("webhookEndpoint"),
    redelivery: z.number().int().min(0).openapi({
      description:
        "0 for the event's own delivery; n for its n-th redelivery (POST /v1/events/{id}/redeliver), whose attempts count from 1 again.",
      example: 0,
    }),
    attempt: z.number().int().min(1).openapi({ description: "From 1 within the delivery or redelivery.", example: 1 }),
    status: z.enum(["pending", "succeeded", "failed"]).openapi({
      description:
        "pending: the attempt is under way; succeeded: a 2xx within 10 s; failed: anything else (another attempt follows at next_retry_at, unless it is null).",
    }),
    response_status: z.number().int().nullable(),
    duration_ms: z.number().int(),
    error: z
      .string()
      .nullable()
      .openapi({ description: "Why it failed (at most 1 KiB): the answer's beginning, or what went wrong." }),
    next_retry_at: z
      .string()
      .datetime()
      .nullable()
      .openapi({ description: "When the next attempt is due after this failed one; null when none follows." }),
    created_at: z.string().datetime(),
  })
  .openapi("WebhookDelivery");

/** The submission.graded event of the examples' submission, delivered at the second attempt; newest first. */
const DELIVERIES_EXAMPLE = [
  {
    id: "whd_01m815g8f0y3dr8ky84yq4fvcr",
    event_id: "evt_01m815edw0rx28cg1x0td9gkwx",
    endpoint_id: ENDPOINT_EXAMPLE.id,
    redelivery: 0,
    attempt: 2,
    status: "succeeded" as const,
    response_status: 200,
    duration_ms: 87,
    error: null,
    next_retry_at: null,
    created_at: "2026-11-22T08:21:00.000Z",
  },
  {
    id: "whd_01m815ee2mm16pakpyh6j68aa2",
    event_id: "evt_01m815edw0rx28cg1x0td9gkwx",
    endpoint_id: ENDPOINT_EXAMPLE.id,
    redelivery: 0,
    attempt: 1,
    status: "failed" as const,
    response_status: 503,
    duration_ms: 212,
    error: "HTTP 503: upstream connect error",
    next_retry_at: "2026-11-22T08:21:00.000Z",
    created_at: "2026-11-22T08:20:00.212Z",
  },
];

export const DeliveryPage = z.object({ deliveries: z.array(Delivery), next_cursor: nextCursorSchema }).openapi({
  description: "Newest first.",
  example: pageExample("deliveries", DELIVERIES_EXAMPLE, DELIVERIES_EXAMPLE[1]?.id ?? null),
});

export const TestEventSent = z
  .object({
    event_id: z.string().openapi({ description: "The webhook_endpoint.test event (GET /v1/events/{id})." }),
    endpoint_id: z.string(),
  })
  .openapi("TestEventSent", {
    example: { event_id: "evt_01kamz3f7c9n0p8s6e5vwx2y4r", endpoint_id: "whe_01kamz3f7c9n0p8s6e5vwx2y4r" },
  });
