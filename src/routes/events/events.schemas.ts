import { z } from "@hono/zod-openapi";
import { EVENT_TYPES } from "../../domain/events";
import { idSchema } from "../../lib/ids";
import { nextCursorSchema } from "../../lib/pagination";

export const EventType = z.enum(EVENT_TYPES).openapi("EventType", { description: "What changed.", example: "submission.graded" });

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
  .openapi("Event", {
    example: {
      id: "evt_01kamz3f7c9n0p8s6e5vwx2y4r",
      type: "user.updated",
      created_at: "2026-11-23T09:30:00.000Z",
      data: {
        object: {
          id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
          name: "Ada Lovelace",
          email: "ada@example.com",
          role: "student",
          created_at: "2026-11-20T08:00:00.000Z",
          updated_at: "2026-11-23T09:30:00.000Z",
        },
      },
      previous_attributes: { name: "Ada" },
    },
  });

export const EventPage = z.object({ events: z.array(Event), next_cursor: nextCursorSchema });

export const Redeliver = z
  .strictObject({
    endpoint_id: idSchema("webhookEndpoint")
      .optional()
      .openapi({ description: "Only to this endpoint; without it, to every enabled endpoint subscribed to the event's type." }),
  })
  .openapi("Redeliver", { example: {} });

export const Redelivery = z
  .object({
    event_id: idSchema("event"),
    endpoint_ids: z.array(idSchema("webhookEndpoint")).openapi({ description: "The endpoints a fresh delivery was queued for." }),
  })
  .openapi("Redelivery");
