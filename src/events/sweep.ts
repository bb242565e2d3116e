import { sql } from "drizzle-orm";
import { statement } from "../db/statements";
import type { Database } from "../env";
import { idFloor } from "../lib/ids";
import { isoNow } from "../lib/time";
import { enqueueEvents } from "./messages";

/** An event not handed to the queue this long after it was recorded is handed over by the sweep. */
const SWEEP_AFTER_MS = 60_000;
/** Events handed over per run: the cron runs every minute, so a backlog drains at this rate. */
const SWEEP_BATCH = 500;
/** Events and delivery records are kept 30 days, then deleted, this many per run and table. */
const RETENTION_DAYS = 30;
const DELETE_BATCH = 1000;

/**
 * The cron's work (every minute, [triggers] in wrangler.toml): events whose request did not hand
 * them to the queue (its waitUntil failed or was cut short) are handed over now, and what is past
 * retention is deleted. Every statement is bounded, so a backlog takes several runs, never one
 * run past Workers' limits.
 */
export async function sweepEvents(env: Env, db: Database, nowMs = Date.now()): Promise<{ queued: number; deleted: number }> {
  const before = isoNow(nowMs - SWEEP_AFTER_MS);
  const stale = await db.all<{ id: string }>(
    sql`SELECT id FROM events WHERE dispatched_at IS NULL AND created_at < ${before} ORDER BY created_at LIMIT ${SWEEP_BATCH}`,
  );
  const ids = stale.map((row) => row.id);
  if (ids.length > 0) {
    await enqueueEvents(env, ids);
    // Marked as handed over, so the next run does not send them again while they wait in the queue.
    await db.run(
      sql`UPDATE events SET dispatched_at = ${isoNow(nowMs)} WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
    );
  }
  // Ids are time-ordered ULIDs: everything below the cutoff's id is older than the cutoff.
  const cutoffMs = nowMs - RETENTION_DAYS * 24 * 3600 * 1000;
  const [events, deliveries] = await db.$client.batch([
    statement(
      db,
      sql`DELETE FROM events WHERE id IN (SELECT id FROM events WHERE id < ${idFloor("event", cutoffMs)} ORDER BY id LIMIT ${DELETE_BATCH})`,
    ),
    statement(
      db,
      sql`DELETE FROM webhook_deliveries WHERE id IN (
            SELECT id FROM webhook_deliveries WHERE id < ${idFloor("delivery", cutoffMs)} ORDER BY id LIMIT ${DELETE_BATCH})`,
    ),
  ]);
  return { queued: ids.length, deleted: (events?.meta.changes ?? 0) + (deliveries?.meta.changes ?? 0) };
}
