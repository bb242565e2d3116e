import { and, asc, eq, lt, sql } from "drizzle-orm";
import { webhookDeliveries } from "../db/events-schema";
import { statement } from "../db/statements";
import type { Database } from "../env";
import { config } from "../lib/config";
import { idFloor } from "../lib/ids";
import { isoNow } from "../lib/time";
import { sendOrLeave } from "../queue/send";
import { followUp } from "./deliver";

/** An event not handed to the queue this long after it was recorded is handed over by the sweep. */
const SWEEP_AFTER_MS = 60_000;
/** Events handed over per run: the cron runs every minute, so a backlog drains at this rate. */
const SWEEP_BATCH = 500;
/**
 * Events no endpoint wants, settled per run in one statement (requests hand the queue only the
 * events an endpoint subscribes to, and leave the others to this): 50 000 a minute, about 830 a
 * second sustained; a busier service settles them over several runs and loses nothing.
 */
const SETTLE_BATCH = 50_000;
/** Events and delivery records are kept 30 days, then deleted, this many per run and table. */
const RETENTION_DAYS = 30;
const DELETE_BATCH = 1000;
/**
 * A delivery claim still `pending` this long after it was made has outlived its attempt (10 s to
 * answer, then the record): the worker that made it died. Ended per run, at most this many.
 */
const STALE_CLAIM_MS = 60_000;
const STALE_CLAIM_BATCH = 100;
const INTERRUPTED = "The attempt was interrupted before its outcome was recorded.";

/**
 * The cron's work (every minute, [triggers] in wrangler.toml): events a request did not hand to
 * the queue are settled — marked done where no enabled endpoint created before the event
 * subscribes to its type, handed to the queue where one does (its request's view of the
 * subscriptions was stale, or its waitUntil failed) — and what is past retention is deleted.
 * Delivery claims left pending by a worker that died are ended (sweepStaleClaims).
 * Every statement is bounded, so a backlog takes several runs, never one run past Workers' limits.
 */
export async function sweepEvents(env: Env, db: Database, nowMs = Date.now()): Promise<{ queued: number; deleted: number }> {
  await sweepStaleClaims(env, db, nowMs);
  const before = isoNow(nowMs - SWEEP_AFTER_MS);
  const [, stale] = await db.$client.batch<{ id: string }>([
    statement(
      db,
      sql`UPDATE events SET dispatched_at = ${isoNow(nowMs)}
          WHERE id IN (SELECT id FROM events WHERE dispatched_at IS NULL AND created_at < ${before} ORDER BY created_at LIMIT ${SETTLE_BATCH})
            AND NOT EXISTS (SELECT 1 FROM webhook_endpoints AS w, json_each(w.events) AS t
              WHERE w.enabled = 1 AND w.created_at <= events.created_at AND t.value IN ('*', events.type))`,
    ),
    statement(
      db,
      sql`SELECT id FROM events WHERE dispatched_at IS NULL AND created_at < ${before} ORDER BY created_at LIMIT ${SWEEP_BATCH}`,
    ),
  ]);
  const ids = (stale?.results ?? []).map((row) => row.id);
  if (ids.length > 0) {
    await sendOrLeave(
      env,
      ids.map((id) => ({ kind: "event", event_id: id })),
      "events not queued; the sweep will",
    );
    // Marked as handed over, so the next run does not send them again while they wait in the queue.
    await db.run(
      sql`UPDATE events SET dispatched_at = ${isoNow(nowMs)} WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
    );
  }
  // Ids are time-ordered ULIDs: everything below the cutoff's id is older than the cutoff.
  const cutoffMs = nowMs - RETENTION_DAYS * 24 * 3600 * 1000;
  const [events, deliveries, redeliveries] = await db.$client.batch([
    statement(
      db,
      sql`DELETE FROM events WHERE id IN (SELECT id FROM events WHERE id < ${idFloor("event", cutoffMs)} ORDER BY id LIMIT ${DELETE_BATCH})`,
    ),
    statement(
      db,
      sql`DELETE FROM webhook_deliveries WHERE id IN (
            SELECT id FROM webhook_deliveries WHERE id < ${idFloor("delivery", cutoffMs)} ORDER BY id LIMIT ${DELETE_BATCH})`,
    ),
    statement(
      db,
      sql`DELETE FROM event_redeliveries WHERE rowid IN (
            SELECT rowid FROM event_redeliveries WHERE event_id < ${idFloor("event", cutoffMs)} ORDER BY event_id LIMIT ${DELETE_BATCH})`,
    ),
  ]);
  const deleted = [events, deliveries, redeliveries].reduce((sum, result) => sum + (result?.meta.changes ?? 0), 0);
  return { queued: ids.length, deleted };
}

/**
 * Ends the delivery claims whose worker died mid-attempt (after the claim, before the record): each
 * is recorded failed, its outcome unknown, and what follows it is queued as after any failed
 * attempt. The UPDATE is conditional, so of a racing sweep or late worker one ends it; the next
 * attempt, if the dead worker queued it already, is claimed once all the same.
 */
async function sweepStaleClaims(env: Env, db: Database, nowMs = Date.now()): Promise<number> {
  const stale = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "pending"), lt(webhookDeliveries.createdAt, isoNow(nowMs - STALE_CLAIM_MS))))
    .orderBy(asc(webhookDeliveries.createdAt))
    .limit(STALE_CLAIM_BATCH);
  if (stale.length === 0) return 0;
  const delays = config(env).webhooks.retryDelaysSeconds;
  const plans = stale.map((row) => {
    const delay = delays[row.attempt - 1];
    return { row, delay, retryAtMs: delay === undefined ? null : nowMs + delay * 1000 };
  });
  const results = await db.$client.batch(
    plans.map(({ row, retryAtMs }) =>
      statement(
        db,
        sql`UPDATE webhook_deliveries SET status = 'failed', error = ${INTERRUPTED},
              next_retry_at = ${retryAtMs === null ? null : isoNow(retryAtMs)}
            WHERE id = ${row.id} AND status = 'pending'`,
      ),
    ),
  );
  let ended = 0;
  for (const [index, { row, delay, retryAtMs }] of plans.entries()) {
    if (results[index]?.meta.changes !== 1) continue;
    ended++;
    await followUp(env, row, delay, retryAtMs);
  }
  return ended;
}
