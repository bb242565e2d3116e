import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Events (the transactional outbox) and webhooks. Timestamps as in schema.ts.

/**
 * One row per change, written in the same D1 batch as the change itself: no change without its
 * event, no event without its change. Ids are time-ordered ULIDs made from created_at's own
 * millisecond, so ordering by id is ordering by (created_at, id).
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    createdAt: text("created_at").notNull(),
    /** `{ object }`: the resource as the API returns it, without secrets or answer keys. */
    data: text("data", { mode: "json" }).$type<{ object: Record<string, unknown> }>().notNull(),
    previousAttributes: text("previous_attributes", { mode: "json" }).$type<Record<string, unknown>>(),
    /** The user whose name and e-mail the event may carry: deleting the user redacts them. */
    userId: text("user_id"),
    /** When the event was handed to the delivery queue; null until then (the sweep's work list). */
    dispatchedAt: text("dispatched_at"),
  },
  (t) => [
    index("events_type_idx").on(t.type, t.id),
    index("events_user_idx").on(t.userId),
    index("events_undispatched_idx").on(t.createdAt).where(sql`dispatched_at IS NULL`),
  ],
);

export const webhookEndpoints = sqliteTable("webhook_endpoints", {
  id: text("id").primaryKey(),
  url: text("url").notNull(),
  description: text("description").notNull().default(""),
  /** Event types, or ["*"] for all of them. */
  events: text("events", { mode: "json" }).$type<string[]>().notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull(),
  /** The signing secret, sealed (AES-GCM under WEBHOOK_SECRET_KEY): it must be usable to sign. */
  secretSealed: text("secret_sealed").notNull(),
  /** The secret a rotation replaced, sealed; it signs too until previous_secret_expires_at. */
  previousSecretSealed: text("previous_secret_sealed"),
  previousSecretExpiresAt: text("previous_secret_expires_at"),
  /** Start of the current run of failed attempts; null after a success. */
  failingSince: text("failing_since"),
  disabledAt: text("disabled_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/** One row per delivery attempt of an event to an endpoint. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    attempt: integer("attempt").notNull(),
    /** succeeded; pending (failed, and next_retry_at says when the next attempt is due); failed (the last). */
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    nextRetryAt: text("next_retry_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id), index("webhook_deliveries_event_idx").on(t.eventId)],
);
