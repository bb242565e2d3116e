import { eq, sql } from "drizzle-orm";
import { commit, type WakeUps } from "../db/after-commit";
import { events, webhookDeliveries, webhookEndpoints } from "../db/events-schema";
import { eventStatement, serializeEvent } from "../db/outbox";
import { statement } from "../db/statements";
import { subscribes } from "../domain/events";
import type { Database } from "../env";
import { config } from "../lib/config";
import { canonicalId, newId } from "../lib/ids";
import { isoNow, unixSeconds } from "../lib/time";
import type { MessageOf } from "../queue/messages";
import { send } from "../queue/send";
import { type AttemptOutcome, postEvent } from "./attempt";
import { endpointForEvent } from "./endpoints";
import { openSecret } from "./secrets";
import { signatureHeader } from "./signature";

type DeliveryMessage = MessageOf<"delivery">;
type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** One attempt, as the unique key of its delivery record names it. */
export interface AttemptKey {
  eventId: string;
  endpointId: string;
  /** 0: the event's own delivery; n: its n-th redelivery. */
  redelivery: number;
  /** From 1 within its delivery or redelivery. */
  attempt: number;
}

/**
 * Fans a recorded event out: one delivery message per enabled endpoint subscribed to its type
 * that existed when the event was recorded, and the event marked as handed over. An id whose
 * change never committed finds no event. A fan-out the queue repeats sends the same messages
 * again, and each attempt is still made once (its claim, in deliver).
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
  await send(
    env,
    targets.map((endpoint) => ({ kind: "delivery", event_id: event.id, endpoint_id: endpoint.id, redelivery: 0, attempt: 1 })),
  );
  await db.run(sql`UPDATE events SET dispatched_at = ${isoNow()} WHERE id = ${event.id} AND dispatched_at IS NULL`);
}

/** The secrets that sign now: the current one, and the one a rotation replaced during its grace. */
async function liveSecrets(env: Env, endpoint: EndpointRow, now: string): Promise<string[]> {
  const secrets = [await openSecret(env, endpoint.id, endpoint.secretSealed)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now)
    secrets.push(await openSecret(env, endpoint.id, endpoint.previousSecretSealed));
  return secrets;
}

/**
 * One attempt of one event to one endpoint: claimed, sent, followed by the next attempt (or the
 * dead letter), recorded. The queue delivers at least once, and repeats whole batches — locally
 * workerd reports every failed fetch (DNS, connection, TLS) as an uncaught error of the
 * invocation even when the code catches it — so the attempt is first claimed by inserting its
 * `pending` record under the unique (event, endpoint, redelivery, attempt): of any number of
 * copies of a message only the one whose insert lands sends, schedules and records; the others
 * stop there. A copy arriving after a crash mid-attempt finds the claim and stops too, so the
 * schedule never forks; the sweep ends a claim left pending (sweepStaleClaims).
 */
export async function deliver(env: Env, db: Database, wakeUps: WakeUps, message: DeliveryMessage): Promise<void> {
  // Messages queued before migration 0007 name the endpoint by its old id.
  const key: AttemptKey = {
    eventId: message.event_id,
    endpointId: canonicalId("webhookEndpoint", message.endpoint_id),
    redelivery: message.redelivery ?? 0,
    attempt: message.attempt,
  };
  const [endpointRows, eventRows] = await db.batch([
    db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, key.endpointId)),
    db.select().from(events).where(eq(events.id, key.eventId)),
  ]);
  const endpoint = endpointRows[0];
  const event = eventRows[0];
  // Deleted or disabled since, or the event is past its retention: nothing to deliver.
  if (!endpoint?.enabled || !event) return;

  const settings = config(env).webhooks;
  const body = JSON.stringify(serializeEvent(event));
  const timestamp = unixSeconds();
  // Signed before the claim: a secret that does not open fails the message, not a claimed attempt.
  const headers = {
    "content-type": "application/json",
    "user-agent": "quiz-api-webhooks/1",
    "webhook-id": event.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await signatureHeader(await liveSecrets(env, endpoint, isoNow()), event.id, timestamp, body),
  };
  const claimId = await claim(db, key);
  if (claimId === undefined) return;
  const outcome = await postEvent(endpoint.url, headers, body, settings.urlPolicy);
  const nowMs = Date.now();
  const delay = outcome.ok ? undefined : settings.retryDelaysSeconds[key.attempt - 1];
  const retryAtMs = delay === undefined ? null : nowMs + delay * 1000;
  // What follows is queued before the outcome is recorded: a crash in between leaves the claim
  // pending for the sweep to end, and a next attempt queued twice is still claimed once.
  if (!outcome.ok) await followUp(env, key, delay, retryAtMs);
  await record(env, db, wakeUps, claimId, endpoint, outcome, retryAtMs, nowMs);
}

/** Inserts the attempt's `pending` record; its id, or undefined when the attempt was claimed already. */
async function claim(db: Database, key: AttemptKey): Promise<string | undefined> {
  const nowMs = Date.now();
  const rows = await db
    .insert(webhookDeliveries)
    .values({
      id: newId("delivery", nowMs),
      ...key,
      status: "pending",
      responseStatus: null,
      durationMs: 0,
      error: null,
      nextRetryAt: null,
      createdAt: isoNow(nowMs),
    })
    .onConflictDoNothing()
    .returning({ id: webhookDeliveries.id });
  return rows[0]?.id;
}

/**
 * After a failed attempt: the next one, queued with its delay (`delay` undefined: none follows),
 * or the dead letter after the last.
 */
export async function followUp(env: Env, key: AttemptKey, delay: number | undefined, retryAtMs: number | null): Promise<void> {
  if (delay !== undefined && retryAtMs !== null) {
    const next: DeliveryMessage = {
      kind: "delivery",
      event_id: key.eventId,
      endpoint_id: key.endpointId,
      redelivery: key.redelivery,
      attempt: key.attempt + 1,
    };
    await send(env, [next], { delaySeconds: delay });
  } else {
    await send(env, [
      { kind: "dead", event_id: key.eventId, endpoint_id: key.endpointId, redelivery: key.redelivery, attempts: key.attempt },
    ]);
  }
}

/** The attempt's outcome on its claimed record, and the endpoint's failure clock in the same batch. */
async function record(
  env: Env,
  db: Database,
  wakeUps: WakeUps,
  claimId: string,
  endpoint: EndpointRow,
  outcome: AttemptOutcome,
  retryAtMs: number | null,
  nowMs: number,
): Promise<void> {
  const now = isoNow(nowMs);
  const statements = [
    statement(
      db,
      sql`UPDATE webhook_deliveries SET status = ${outcome.ok ? "succeeded" : "failed"}, response_status = ${outcome.responseStatus},
            duration_ms = ${outcome.durationMs}, error = ${outcome.error}, next_retry_at = ${retryAtMs === null ? null : isoNow(retryAtMs)}
          WHERE id = ${claimId} AND status = 'pending'`,
    ),
  ];
  if (outcome.ok) {
    statements.push(statement(db, sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${endpoint.id}`));
  } else {
    statements.push(
      statement(db, sql`UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ${now}) WHERE id = ${endpoint.id}`),
      ...disableStatements(db, endpoint, nowMs, config(env).webhooks.disableAfterSeconds),
    );
  }
  await commit(db, wakeUps, statements);
}

/**
 * An endpoint whose attempts have all failed since `failing_since`, for at least
 * WEBHOOK_DISABLE_AFTER_SECONDS, is disabled, with its `webhook_endpoint.disabled` event in the
 * same batch (written only if this batch is the one that disabled it).
 */
function disableStatements(db: Database, endpoint: EndpointRow, nowMs: number, afterSeconds: number) {
  const now = isoNow(nowMs);
  const cutoff = isoNow(nowMs - afterSeconds * 1000);
  const disabled = endpointForEvent({ ...endpoint, enabled: false, disabledAt: now, updatedAt: now });
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
