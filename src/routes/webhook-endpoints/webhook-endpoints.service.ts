import { and, asc, count, desc, eq, gt, lt, sql } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints } from "../../db/events-schema";
import { statement } from "../../db/statements";
import { judgeWebhookUrl } from "../../domain/safe-target";
import type { Database } from "../../env";
import { endpointForEvent, serializeEndpoint, type Viewer, visibleTo } from "../../events/endpoints";
import { sealSecret } from "../../events/secrets";
import { newSigningSecret } from "../../events/signature";
import { forgetSubscriptions } from "../../events/subscribers";
import { config } from "../../lib/config";
import { ApiError, conflict, notFound, validationFailed } from "../../lib/errors";
import { idFloor, newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import { send } from "../../queue/send";

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Endpoints a deployment may have: each event is fanned out to every subscribed one. */
const MAX_ENDPOINTS = 100;

/** The URL as it will be called (WHATWG-serialised), or a 400 naming why it is refused. */
function safeUrl(env: Env, url: string): string {
  const verdict = judgeWebhookUrl(url, config(env).webhooks.urlPolicy);
  if (!verdict.ok) throw validationFailed([{ path: "url", message: verdict.reason }]);
  return verdict.url.href;
}

export async function createEndpoint(
  env: Env,
  db: Database,
  viewer: Viewer,
  input: { url: string; events: string[]; description: string; enabled: boolean },
) {
  const url = safeUrl(env, input.url);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(webhookEndpoints);
  if (total >= MAX_ENDPOINTS)
    throw conflict("webhook_endpoint_limit", `At most ${MAX_ENDPOINTS} webhook endpoints; delete one before creating another.`);
  const now = isoNow();
  const id = newId("webhookEndpoint");
  const secret = newSigningSecret();
  const row: EndpointRow = {
    id,
    url,
    description: input.description,
    events: input.events,
    enabled: input.enabled,
    secretSealed: await sealSecret(env, id, secret),
    previousSecretSealed: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    disabledAt: null,
    createdBy: viewer.id,
    createdAt: now,
    updatedAt: now,
  };
  await db.insert(webhookEndpoints).values(row);
  // This isolate hands the new endpoint's events to the queue from now on; others within 10 s.
  forgetSubscriptions(db);
  return { ...serializeEndpoint(row), secret };
}

/** The endpoints the viewer created (admin: all of them), oldest first. */
export async function listEndpoints(db: Database, viewer: Viewer, after: string | undefined, limit: number) {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(visibleTo(viewer), after === undefined ? undefined : gt(webhookEndpoints.id, after)))
    .orderBy(asc(webhookEndpoints.id))
    .limit(limit + 1);
  return rows.map(serializeEndpoint);
}

/** Only the endpoint's creator and admin find it; to anyone else it does not exist (404). */
const visible = (viewer: Viewer, id: string) => and(eq(webhookEndpoints.id, id), visibleTo(viewer));

export async function getEndpoint(db: Database, viewer: Viewer, id: string) {
  const [row] = await db.select().from(webhookEndpoints).where(visible(viewer, id));
  if (!row) throw notFound("Webhook endpoint");
  return serializeEndpoint(row);
}

export async function updateEndpoint(
  env: Env,
  db: Database,
  viewer: Viewer,
  id: string,
  patch: { url?: string; events?: string[]; description?: string; enabled?: boolean },
) {
  const url = patch.url === undefined ? undefined : safeUrl(env, patch.url);
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      ...(url === undefined ? {} : { url }),
      ...(patch.events === undefined ? {} : { events: patch.events }),
      ...(patch.description === undefined ? {} : { description: patch.description }),
      ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
      // Enabling (again) starts a fresh failure clock; disabling by hand is not "disabled after failing".
      ...(patch.enabled === true ? { failingSince: null, disabledAt: null } : {}),
      updatedAt: isoNow(),
    })
    .where(visible(viewer, id))
    .returning();
  if (!row) throw notFound("Webhook endpoint");
  forgetSubscriptions(db);
  return serializeEndpoint(row);
}

export async function deleteEndpoint(db: Database, viewer: Viewer, id: string) {
  const [deleted] = await db.batch([
    db.delete(webhookEndpoints).where(visible(viewer, id)).returning({ id: webhookEndpoints.id }),
    // Only if the endpoint went: another's deliveries stay.
    db
      .delete(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, id),
          sql`NOT EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${webhookEndpoints.id} = ${id})`,
        ),
      ),
  ]);
  if (deleted.length === 0) throw notFound("Webhook endpoint");
  forgetSubscriptions(db);
}

/**
 * A new secret; the current one becomes the previous and signs beside it until the grace ends.
 * One statement: of two racing rotations each keeps a consistent pair (the later one's previous
 * is the earlier one's new secret).
 */
export async function rotateSecret(env: Env, db: Database, viewer: Viewer, id: string, graceSeconds: number) {
  const secret = newSigningSecret();
  const sealed = await sealSecret(env, id, secret);
  const now = Date.now();
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      previousSecretSealed: graceSeconds === 0 ? null : webhookEndpoints.secretSealed,
      previousSecretExpiresAt: graceSeconds === 0 ? null : isoNow(now + graceSeconds * 1000),
      secretSealed: sealed,
      updatedAt: isoNow(now),
    })
    .where(visible(viewer, id))
    .returning();
  if (!row) throw notFound("Webhook endpoint");
  return { ...serializeEndpoint(row), secret };
}

/** Test events one endpoint may be sent per TEST_EVENT_WINDOW_SECONDS, whoever asks for them (as redelivery is capped). */
const MAX_TEST_EVENTS = 5;
const TEST_EVENT_WINDOW_SECONDS = 3600;

/**
 * A `webhook_endpoint.test` event, sent to this endpoint only, whatever it subscribes to: recorded
 * (readable at GET /v1/events/{id}) already dispatched, so the fan-out and the sweep pass it by,
 * and its delivery queued like any first attempt (its record under the endpoint's deliveries, its
 * retries on the usual schedule). Each one costs the target up to every attempt of the schedule,
 * so an endpoint gets at most MAX_TEST_EVENTS an hour: the event is inserted only while the hour
 * holds fewer, in one statement (D1 runs statements one at a time, so the count holds exactly
 * under concurrent calls), else 429 test_event_limited.
 */
export async function sendTestEvent(env: Env, db: Database, viewer: Viewer, id: string) {
  const [row] = await db.select().from(webhookEndpoints).where(visible(viewer, id));
  if (!row) throw notFound("Webhook endpoint");
  if (!row.enabled) throw conflict("endpoint_disabled", "The endpoint is disabled; enable it before sending it a test event.");
  const now = Date.now();
  const eventId = newId("event", now);
  const ofThisEndpoint = sql`type = 'webhook_endpoint.test' AND id > ${idFloor("event", now - TEST_EVENT_WINDOW_SECONDS * 1000)}
        AND json_extract(data, '$.object.id') = ${row.id}`;
  const inserted = await statement(
    db,
    sql`INSERT INTO events (id, type, created_at, data, previous_attributes, dispatched_at)
        SELECT ${eventId}, 'webhook_endpoint.test', ${isoNow(now)}, ${JSON.stringify({ object: endpointForEvent(row) })}, NULL, ${isoNow(now)}
        WHERE (SELECT count(*) FROM events WHERE ${ofThisEndpoint}) < ${MAX_TEST_EVENTS}
        RETURNING id`,
  ).first<{ id: string }>();
  if (!inserted) {
    const oldest = await statement(db, sql`SELECT min(created_at) AS at FROM events WHERE ${ofThisEndpoint}`).first<{
      at: string | null;
    }>();
    const freeAtMs = (oldest?.at ? Date.parse(oldest.at) : now) + TEST_EVENT_WINDOW_SECONDS * 1000;
    const retryAfter = Math.max(1, Math.ceil((freeAtMs - now) / 1000));
    throw new ApiError(
      "test_event_limited",
      `At most ${MAX_TEST_EVENTS} test events to an endpoint per hour; retry after ${retryAfter} s.`,
      { headers: { "Retry-After": String(retryAfter) } },
    );
  }
  await send(env, [{ kind: "delivery", event_id: eventId, endpoint_id: row.id, attempt: 1 }]);
  return { event_id: eventId, endpoint_id: row.id };
}

function serializeDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    event_id: row.eventId,
    endpoint_id: row.endpointId,
    redelivery: row.redelivery,
    attempt: row.attempt,
    status: row.status,
    response_status: row.responseStatus,
    duration_ms: row.durationMs,
    error: row.error,
    next_retry_at: row.nextRetryAt,
    created_at: row.createdAt,
  };
}

export async function listDeliveries(
  db: Database,
  viewer: Viewer,
  endpointId: string,
  before: string | undefined,
  limit: number,
) {
  const [endpoints, rows] = await db.batch([
    db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(visible(viewer, endpointId)),
    db
      .select()
      .from(webhookDeliveries)
      .where(
        and(eq(webhookDeliveries.endpointId, endpointId), before === undefined ? undefined : lt(webhookDeliveries.id, before)),
      )
      .orderBy(desc(webhookDeliveries.id))
      .limit(limit + 1),
  ]);
  if (endpoints.length === 0) throw notFound("Webhook endpoint");
  return rows.map(serializeDelivery);
}
