import { sql } from "drizzle-orm";
import type { Database } from "../env";
import { DEADLINE_CHUNK, sendAll } from "../events/messages";
import { isoNow } from "../lib/time";
import { gradeExactlyOnce } from "./grade";

/** Overdue submissions the cron hands to the queue per run (one D1 read of their ids). */
const OVERDUE_PER_RUN = 5000;

/**
 * The cron's part of deadlines: the open submissions whose deadline has passed, oldest deadline
 * first, handed to the queue in chunks; each chunk is graded by one consumer invocation. A
 * backlog larger than a run is picked up by the next run (they are still open and overdue); a
 * submission handed over twice is graded once all the same (the grade's claim).
 */
export async function enqueueOverdue(env: Env, db: Database, nowMs = Date.now()): Promise<number> {
  const overdue = await db.all<{ id: string }>(
    sql`SELECT id FROM submissions WHERE status = 'open' AND deadline_at IS NOT NULL AND deadline_at <= ${isoNow(nowMs)}
        ORDER BY deadline_at LIMIT ${OVERDUE_PER_RUN}`,
  );
  const ids = overdue.map((row) => row.id);
  const messages = [];
  for (let i = 0; i < ids.length; i += DEADLINE_CHUNK)
    messages.push({ kind: "deadline" as const, submission_ids: ids.slice(i, i + DEADLINE_CHUNK) });
  await sendAll(env.EVENTS_QUEUE, messages);
  return ids.length;
}

/**
 * Grades each overdue submission as a grade call would, exactly once alongside any racing call,
 * marked graded_by "deadline"; it grades the answers stored before the deadline (later writes
 * were refused). One submission's failure does not stop the others; it is thrown after them,
 * so the message is retried (the graded ones answer their stored grade on the retry).
 */
export async function gradeOverdue(env: Env, db: Database, ids: string[]): Promise<void> {
  const failures: unknown[] = [];
  for (const id of ids) {
    try {
      await gradeExactlyOnce(env, db, id, "deadline");
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0)
    throw new AggregateError(failures, `${failures.length} of ${ids.length} overdue submissions failed to grade`);
}
