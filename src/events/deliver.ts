import { eq, sql } from "drizzle-orm";
import { events, webhookDeliveries, webhookEndpoints } from "../db/events-schema";
import { eventStatement, serializeEvent, takeRecordedEvents } from "../db/outbox";
import { prepared, statement } from "../db/statements";
import { subscribes } from "../domain/events";
import type { Database } from "../env";
import { config } from "../lib/config";
import { newId } from "../lib/ids";
import { isoNow, unixSeconds } from "../lib/time";
import { type AttemptOutcome, postEvent } from "./attempt";
import { serializeEndpoint } from "./endpoints";
import { type DeadLetter, type EventsMessage, enqueueEvents, MAX_QUEUE_DELAY_SECONDS, sendAll } from "./messages";
import { openSecret } from "./secrets";
import { signatureHeader } from "./signature";

type DeliveryMessage = Extract<EventsMessage, { kind: "delivery" }>;

/**
 * Fans a recorded event out: one delivery message per enabled endpoint subscribed to its type
 * that existed when the event was recorded, and the event marked as handed over. An id whose
 * change never committed finds no event.
 */
export async function fanOut(env: Env, db: Database, eventId: string): Promise<void> {
  const [eventRows, endpointRows] = await db.batch([
    db.select({ id: events.id, type: events.type, createdAt: events.createdAt }).from(events).where(eq(events.id, eventId)),
    db
      .select({ id: webhookEndpoints.id, events: webhookEndpoints.events, createdAt: webhookEndpoints.createdAt })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.enabled, true)),
  ]);
  const event = eventRows[0];
  if (!event) return;
  const targets = endpointRows.filter(
    (endpoint) => endpoint.createdAt <= event.createdAt && subscribes(endpoint.events, event.type),
  );
  await sendAll(
    env.EVENTS_QUEUE,
    targets.map((endpoint) => ({ kind: "delivery", event_id: event.id, endpoint_id: endpoint.id, attempt: 1 })),
  );
  await db.run(sql`UPDATE events SET dispatched_at = ${isoNow()} WHERE id = ${event.id} AND dispatched_at IS NULL`);
}

/** The secrets that sign now: the current one, and the one a rotation replaced during its grace. */
async function liveSecrets(env: Env, endpoint: typeof webhookEndpoints.$inferSelect, now: string): Promise<string[]> {
  const secrets = [await openSecret(env, endpoint.id, endpoint.secretSealed)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now)
    secrets.push(await openSecret(env, endpoint.id, endpoint.previousSecretSealed));
  return secrets;
}

/** One attempt of one event to one endpoint, its record, and what follows: a retry or the dead-letter queue. */
export async function deliver(env: Env, db: Database, message: DeliveryMessage): Promise<void> {
  if (message.not_before !== undefined && Date.now() < message.not_before) {
    const wait = Math.ceil((message.not_before - Date.now()) / 1000);
    await env.EVENTS_QUEUE.send(message, { delaySeconds: Math.min(wait, MAX_QUEUE_DELAY_SECONDS), contentType: "json" });
    return;
  }
  const [endpointRows, eventRows] = await db.batch([
    db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, message.endpoint_id)),
    db.select().from(events).where(eq(events.id, message.event_id)),
  ]);
  const endpoint = endpointRows[0];
  const event = eventRows[0];
  // Deleted or disabled since, or the event is past its retention: nothing to deliver.
  if (!endpoint?.enabled || !event) return;

  const settings = config(env).webhooks;
  const body = JSON.stringify(serializeEvent(event));
  const timestamp = unixSeconds();
  const headers = {
    "content-type": "application/json",
    "user-agent": "quiz-api-webhooks/1",
    "webhook-id": event.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await signatureHeader(await liveSecrets(env, endpoint, isoNow()), event.id, timestamp, body),
  };
  const outcome = await postEvent(endpoint.url, headers, body, settings.urlPolicy);
  await record(env, db, message, endpoint, outcome);
}

async function record(
  env: Env,
  db: Database,
  message: DeliveryMessage,
  endpoint: typeof webhookEndpoints.$inferSelect,
  outcome: AttemptOutcome,
): Promise<void> {
  const settings = config(env).webhooks;
  const nowMs = Date.now();
  const now = isoNow(nowMs);
  const delay = outcome.ok ? undefined : settings.retryDelaysSeconds[message.attempt - 1];
  const retryAt = delay === undefined ? null : nowMs + delay * 1000;
  const row: typeof webhookDeliveries.$inferInsert = {
    id: newId("delivery", nowMs),
    eventId: message.event_id,
    endpointId: endpoint.id,
    attempt: message.attempt,
    status: outcome.ok ? "succeeded" : retryAt === null ? "failed" : "pending",
    responseStatus: outcome.responseStatus,
    durationMs: outcome.durationMs,
    error: outcome.error,
    nextRetryAt: retryAt === null ? null : isoNow(retryAt),
    createdAt: now,
  };
  const statements = [prepared(db, db.insert(webhookDeliveries).values(row))];
  if (outcome.ok) {
    statements.push(statement(db, sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${endpoint.id}`));
  } else {
    statements.push(
      statement(db, sql`UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ${now}) WHERE id = ${endpoint.id}`),
      ...disableStatements(db, endpoint, nowMs, settings.disableAfterSeconds),
    );
  }
  await db.$client.batch(statements);
  const disabledEvents = takeRecordedEvents(db).map((event) => event.id);

  if (retryAt !== null && delay !== undefined) {
    const next: DeliveryMessage = { ...message, attempt: message.attempt + 1 };
    if (delay > MAX_QUEUE_DELAY_SECONDS) next.not_before = retryAt;
    else delete next.not_before;
    await env.EVENTS_QUEUE.send(next, { delaySeconds: Math.min(delay, MAX_QUEUE_DELAY_SECONDS), contentType: "json" });
  } else if (!outcome.ok) {
    const dead: DeadLetter = { kind: "dead", event_id: message.event_id, endpoint_id: endpoint.id, attempts: message.attempt };
    await env.EVENTS_DLQ.send(dead, { contentType: "json" });
  }
  if (disabledEvents.length > 0) await enqueueEvents(env, disabledEvents);
}

/**
 * An endpoint whose attempts have all failed since `failing_since`, for at least
 * WEBHOOK_DISABLE_AFTER_SECONDS, is disabled, with its `webhook_endpoint.disabled` event in the
 * same batch (written only if this batch is the one that disabled it).
 */
function disableStatements(db: Database, endpoint: typeof webhookEndpoints.$inferSelect, nowMs: number, afterSeconds: number) {
  const now = isoNow(nowMs);
  const cutoff = isoNow(nowMs - afterSeconds * 1000);
  const disabled = serializeEndpoint({ ...endpoint, enabled: false, disabledAt: now, updatedAt: now });
  return [
    statement(
      db,
      sql`UPDATE webhook_endpoints SET enabled = 0, disabled_at = ${now}, updated_at = ${now}
          WHERE id = ${endpoint.id} AND enabled = 1 AND failing_since IS NOT NULL AND failing_since <= ${cutoff}`,
    ),
    eventStatement(
      db,
      { type: "webhook_endpoint.disabled", object: disabled, previous: { enabled: true, disabled_at: null } },
      "after-change",
    ),
  ];
}
