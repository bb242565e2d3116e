import { and, desc, eq, lt, sql } from "drizzle-orm";
import { events, webhookEndpoints } from "../../db/events-schema";
import { serializeEvent } from "../../db/outbox";
import { statement } from "../../db/statements";
import { subscribes } from "../../domain/events";
import type { Database } from "../../env";
import { type Viewer, visibleTo } from "../../events/endpoints";
import { ApiError, conflict, notFound } from "../../lib/errors";
import { isoNow } from "../../lib/time";
import { send } from "../../queue/send";

/** Redeliveries of one event allowed per REDELIVERY_WINDOW_SECONDS, whoever asks for them. */
const MAX_REDELIVERIES = 5;
const REDELIVERY_WINDOW_SECONDS = 3600;

export async function listEvents(db: Database, filter: { before?: string; type?: string }, limit: number) {
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        filter.before === undefined ? undefined : lt(events.id, filter.before),
        filter.type === undefined ? undefined : eq(events.type, filter.type),
      ),
    )
    .orderBy(desc(events.id))
    .limit(limit + 1);
  return rows.map(serializeEvent);
}

export async function getEvent(db: Database, id: string) {
  const [row] = await db.select().from(events).where(eq(events.id, id));
  if (!row) throw notFound("Event");
  return serializeEvent(row);
}

/**
 * Queues attempt 1 of a new redelivery of the event to one endpoint, or to every endpoint the
 * caller sees that is enabled and subscribed to the event's type; each endpoint once. The
 * redelivery is numbered per event (event_redeliveries), and its attempts are recorded under
 * that number, so each keeps its own schedule and one record per attempt. A call that queues
 * nothing is not counted.
 */
export async function redeliver(env: Env, db: Database, viewer: Viewer, id: string, endpointId: string | undefined) {
  const [eventRows, endpointRows] = await db.batch([
    db.select({ id: events.id, type: events.type }).from(events).where(eq(events.id, id)),
    db
      .select({ id: webhookEndpoints.id, events: webhookEndpoints.events, enabled: webhookEndpoints.enabled })
      .from(webhookEndpoints)
      .where(
        and(
          endpointId === undefined ? eq(webhookEndpoints.enabled, true) : eq(webhookEndpoints.id, endpointId),
          visibleTo(viewer),
        ),
      ),
  ]);
  const event = eventRows[0];
  if (!event) throw notFound("Event");
  const targets = endpointRows.filter((endpoint) => endpoint.enabled && subscribes(endpoint.events, event.type));
  if (endpointId !== undefined) {
    if (endpointRows.length === 0) throw notFound("Webhook endpoint");
    if (targets.length === 0)
      throw conflict(
        "endpoint_not_subscribed",
        `The endpoint is disabled or not subscribed to ${event.type}; enable it or subscribe it to the type first.`,
      );
  }
  if (targets.length === 0) return { event_id: event.id, redelivery: null, endpoint_ids: [] };
  const redelivery = await numberRedelivery(db, event.id, Date.now());
  await send(
    env,
    targets.map((endpoint) => ({ kind: "delivery", event_id: event.id, endpoint_id: endpoint.id, redelivery, attempt: 1 })),
  );
  return { event_id: event.id, redelivery, endpoint_ids: targets.map((endpoint) => endpoint.id) };
}

/**
 * The event's next redelivery number, taken in one statement (D1 runs statements one at a time,
 * so concurrent calls get distinct numbers and the hourly count holds exactly), or 429 with the
 * seconds until the oldest redelivery of the last hour leaves the window.
 */
async function numberRedelivery(db: Database, eventId: string, nowMs: number): Promise<number> {
  const windowStart = isoNow(nowMs - REDELIVERY_WINDOW_SECONDS * 1000);
  const taken = await statement(
    db,
    sql`INSERT INTO event_redeliveries (event_id, redelivery, created_at)
        SELECT ${eventId}, (SELECT coalesce(max(redelivery), 0) + 1 FROM event_redeliveries WHERE event_id = ${eventId}), ${isoNow(nowMs)}
        WHERE (SELECT count(*) FROM event_redeliveries WHERE event_id = ${eventId} AND created_at > ${windowStart}) < ${MAX_REDELIVERIES}
        RETURNING redelivery`,
  ).first<{ redelivery: number }>();
  if (taken) return taken.redelivery;
  const oldest = await statement(
    db,
    sql`SELECT min(created_at) AS at FROM event_redeliveries WHERE event_id = ${eventId} AND created_at > ${windowStart}`,
  ).first<{ at: string | null }>();
  const freeAtMs = (oldest?.at ? Date.parse(oldest.at) : nowMs) + REDELIVERY_WINDOW_SECONDS * 1000;
  const retryAfter = Math.max(1, Math.ceil((freeAtMs - nowMs) / 1000));
  throw new ApiError(
    "redelivery_limited",
    `At most ${MAX_REDELIVERIES} redeliveries of an event per hour; retry after ${retryAfter} s.`,
    { headers: { "Retry-After": String(retryAfter) } },
  );
}
