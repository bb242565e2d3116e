import { z } from "@hono/zod-openapi";
import { EVENT_TYPES } from "../../domain/events";
import { idParam, idSchema } from "../../lib/ids";
import { pageExample } from "../../lib/openapi";
import { nextCursorSchema } from "../../lib/pagination";

export const EventType = z.enum(EVENT_TYPES).openapi("EventType", { description: "What changed.", example: "submission.graded" });

/** What PATCH /v1/users/{id}'s example records. */
const EVENT_EXAMPLE = {
  id: "evt_01kamz3f7c9n0p8s6e5vwx2y4r",
  type: "user.updated" as const,
  created_at: "2026-11-23T09:30:00.000Z",
  data: {
    object: {
      id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
      name: "Ada King",
      email: "ada@example.com",
      role: "instructor",
      created_at: "2026-11-20T08:00:00.000Z",
      updated_at: "2026-11-23T09:30:00.000Z",
    },
  },
  previous_attributes: { name: "Ada Lovelace", role: "student" },
};

export const Event = z
  .object({
    id: idSchema("event"),
    type: EventType,
    created_at: z.string().datetime(),
    data: z.object({
      object: z
        .record(z.string(), z.unknown())
        .openapi({ description: "The resource as the API returns it (questions without their answer keys; never a secret)." }),
    }),
    previous_attributes: z.record(z.string(), z.unknown()).optional().openapi({
      description: "The old values of the fields that changed: on every `*.updated` and `submission.regraded` event.",
    }),
  })
  .openapi("Event", { example: EVENT_EXAMPLE });

export const EventPage = z
  .object({ events: z.array(Event), next_cursor: nextCursorSchema })
  .openapi({ description: "Newest first.", example: pageExample("events", [EVENT_EXAMPLE], EVENT_EXAMPLE.id) });

export const Redeliver = z
  .strictObject({
    endpoint_id: idParam("webhookEndpoint").optional().openapi({
      description:
        "Only to this endpoint (one of the caller's, enabled and subscribed to the event's type); without it, to every such endpoint of the caller's.",
    }),
  })
  .openapi("Redeliver", { example: {} });

export const Redelivery = z
  .object({
    event_id: idSchema("event"),
    redelivery: z.number().int().min(1).nullable().openapi({
      description:
        "This redelivery's number (1 for the event's first): the `redelivery` of its delivery records. null when no endpoint was to be delivered to (not counted).",
      example: 1,
    }),
    endpoint_ids: z.array(idSchema("webhookEndpoint")).openapi({ description: "The endpoints a fresh delivery was queued for." }),
  })
  .openapi("Redelivery", {
    example: { event_id: EVENT_EXAMPLE.id, redelivery: 1, endpoint_ids: ["whe_01kamz3f7c9n0p8s6e5vwx2y4r"] },
  });
