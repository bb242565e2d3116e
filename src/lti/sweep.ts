import { sql } from "drizzle-orm";
import { statement } from "../db/statements";
import type { Database } from "../env";
import { isoNow } from "../lib/time";
import { wakePassbacks } from "./wake-passbacks";

/** A pending row due this long without a send was not woken (its message was lost): wake it again. */
const FORGOTTEN_AFTER_MS = 60_000;
const WAKE_BATCH = 500;
const DELETE_BATCH = 5000;

/**
 * The cron's share of LTI, every minute: nonces past the time their token could still be
 * accepted are deleted, and so are login states and tool tickets past their expiry; and ledger rows left pending without a wake-up (a hand-over that failed,
 * a message dead-lettered, a worker that died holding the lease) are handed to the queue again.
 * Bounded statements: a backlog takes several runs.
 */
export async function sweepLti(env: Env, db: Database, nowMs = Date.now()): Promise<void> {
  const now = isoNow(nowMs);
  const before = isoNow(nowMs - FORGOTTEN_AFTER_MS);
  await db.run(
    sql`DELETE FROM lti_nonces WHERE rowid IN (SELECT rowid FROM lti_nonces WHERE expires_at < ${now} LIMIT ${DELETE_BATCH})`,
  );
  // Logins and tickets past their time can never be used (every read checks expires_at): dropped.
  await db.$client.batch([
    statement(
      db,
      sql`DELETE FROM lti_login_states WHERE rowid IN (SELECT rowid FROM lti_login_states WHERE expires_at < ${now} LIMIT ${DELETE_BATCH})`,
    ),
    statement(
      db,
      sql`DELETE FROM lti_tickets WHERE rowid IN (SELECT rowid FROM lti_tickets WHERE expires_at < ${now} LIMIT ${DELETE_BATCH})`,
    ),
  ]);
  const forgotten = await db.all<{ id: string }>(sql`
    SELECT id FROM lti_passbacks
    WHERE status = 'pending' AND updated_at < ${before} AND coalesce(next_retry_at, '') < ${before}
      AND (lease_until IS NULL OR lease_until <= ${now})
    ORDER BY updated_at LIMIT ${WAKE_BATCH}`);
  if (forgotten.length > 0)
    await wakePassbacks(
      env,
      forgotten.map((row) => row.id),
    );
}
