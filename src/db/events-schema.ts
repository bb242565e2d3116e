import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

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
  /** The signing secret, sealed (AES-GCM under WEBHOOK_SECRET_KEY, src/lib/sealing.ts): it must be usable to sign. */
  secretSealed: text("secret_sealed").notNull(),
  /** The secret a rotation replaced, sealed; it signs too until previous_secret_expires_at. */
  previousSecretSealed: text("previous_secret_sealed"),
  previousSecretExpiresAt: text("previous_secret_expires_at"),
  /** Start of the current run of failed attempts; null after a success. */
  failingSince: text("failing_since"),
  disabledAt: text("disabled_at"),
  /**
   * The credential that created it: an API key's id (its rotation successors inherit it) or an
   * OAuth client's id. Only it, or admin, sees and changes the endpoint; null (endpoints made
   * before owners were recorded): admin only.
   */
  createdBy: text("created_by"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/**
 * One row per attempt of an event to an endpoint, unique per (event, endpoint, redelivery,
 * attempt): the row is inserted `pending` to claim the attempt before it is sent, so a message the
 * queue hands over twice is sent and recorded once. `redelivery` is 0 for the event's own delivery
 * and n for its n-th redelivery (event_redeliveries), each with attempts from 1.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    redelivery: integer("redelivery").notNull().default(0),
    attempt: integer("attempt").notNull(),
    /** pending: claimed and under way; succeeded; failed (next_retry_at says when the next attempt is due, null when none follows). */
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    nextRetryAt: text("next_retry_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_attempt_idx").on(t.eventId, t.endpointId, t.redelivery, t.attempt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    // Claims the sweep finds unfinished (the attempt's worker died): few rows, the in-flight ones.
    index("webhook_deliveries_pending_idx").on(t.createdAt).where(sql`status = 'pending'`),
  ],
);

/** One row per redelivery of an event (POST /v1/events/{id}/redeliver): its number, and the hourly limit's clock. */
export const eventRedeliveries = sqliteTable(
  "event_redeliveries",
  {
    eventId: text("event_id").notNull(),
    /** 1 for the event's first redelivery, 2 for the next, … */
    redelivery: integer("redelivery").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.redelivery] })],
);
