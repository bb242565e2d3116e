import { and, desc, eq, lt } from "drizzle-orm";
import { events, webhookEndpoints } from "../../db/events-schema";
import { serializeEvent } from "../../db/outbox";
import { subscribes } from "../../domain/events";
import type { Database } from "../../env";
import { sendAll } from "../../events/messages";
import { notFound } from "../../lib/errors";

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

/** Queues attempt 1 of the event to one endpoint, or to every enabled endpoint subscribed to it. */
export async function redeliver(env: Env, db: Database, id: string, endpointId: string | undefined) {
  const [eventRows, endpointRows] = await db.batch([
    db.select({ id: events.id, type: events.type }).from(events).where(eq(events.id, id)),
    db
      .select({ id: webhookEndpoints.id, events: webhookEndpoints.events, enabled: webhookEndpoints.enabled })
      .from(webhookEndpoints)
      .where(endpointId === undefined ? eq(webhookEndpoints.enabled, true) : eq(webhookEndpoints.id, endpointId)),
  ]);
  const event = eventRows[0];
  if (!event) throw notFound("Event");
  if (endpointId !== undefined && endpointRows.length === 0) throw notFound("Webhook endpoint");
  const targets =
    endpointId === undefined ? endpointRows.filter((endpoint) => subscribes(endpoint.events, event.type)) : endpointRows;
  await sendAll(
    env.EVENTS_QUEUE,
    targets.map((endpoint) => ({ kind: "delivery", event_id: event.id, endpoint_id: endpoint.id, attempt: 1 })),
  );
  return { event_id: event.id, endpoint_ids: targets.map((endpoint) => endpoint.id) };
}
