import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { WakeUps } from "../db/after-commit";
import { ltiPassbacks } from "../db/lti-schema";
import type { Database } from "../env";
import { notFound } from "../lib/errors";
import { isoNow } from "../lib/time";
import { serializePassback } from "./ledger-rows";

interface PassbackFilter {
  after?: string;
  status?: "pending" | "succeeded" | "failed";
  quizId?: string;
  userId?: string;
}

/** GET /v1/lti/passbacks: the ledger by id (oldest row first), filtered. */
export async function listPassbacks(db: Database, filter: PassbackFilter, limit: number) {
  const rows = await db
    .select()
    .from(ltiPassbacks)
    .where(
      and(
        filter.after === undefined ? undefined : gt(ltiPassbacks.id, filter.after),
        filter.status === undefined ? undefined : eq(ltiPassbacks.status, filter.status),
        filter.quizId === undefined ? undefined : eq(ltiPassbacks.quizId, filter.quizId),
        filter.userId === undefined ? undefined : eq(ltiPassbacks.userId, filter.userId),
      ),
    )
    .orderBy(asc(ltiPassbacks.id))
    .limit(limit + 1);
  return rows.map(serializePassback);
}

/**
 * POST /v1/lti/passbacks/{id}/retry: the row's latest kept grade is sent again, whatever its
 * status, with a fresh count of attempts; a pending row still waits out a platform's Retry-After.
 */
export async function retryPassback(db: Database, wakeUps: WakeUps, id: string) {
  const [row] = await db
    .update(ltiPassbacks)
    .set({
      status: "pending",
      version: sql`version + 1`,
      attempts: 0,
      nextRetryAt: sql`CASE WHEN status = 'pending' THEN next_retry_at END`,
      updatedAt: isoNow(),
    })
    .where(eq(ltiPassbacks.id, id))
    .returning();
  if (!row) throw notFound("Passback");
  wakeUps.add({ kind: "lti_passback", id: row.id });
  return serializePassback(row);
}
