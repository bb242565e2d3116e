import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { WakeUps } from "../db/after-commit";
import { ltiPassbacks } from "../db/lti-schema";
import { jobs, quizzes } from "../db/schema";
import { statement } from "../db/statements";
import type { Database } from "../env";
import { notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";

/**
 * POST /v1/quizzes/{id}/lti/resync: a job (jobs queue) that makes every ledger row of the quiz
 * pending again — its latest kept grade sent afresh, whatever became of it — in chunks. Each
 * chunk's batch moves the job's cursor from the value it read and stamps it; the rows change only
 * where that stamp stands, so a delivery that runs twice changes each chunk once. A platform's
 * Retry-After still holds for rows waiting out one.
 */

const RESYNC_CHUNK = 100;
/** Chunks per delivery: at most 1 000 rows and 30 statements, then the job is queued again. */
const CHUNKS_PER_DELIVERY = 10;

/** The resync job of a quiz, queued; 404 for an unknown quiz. Only admin sees it (GET /v1/jobs/{id}). */
export async function startResync(db: Database, wakeUps: WakeUps, quizId: string) {
  const [quiz] = await db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.id, quizId));
  if (!quiz) throw notFound("Quiz");
  const now = isoNow();
  const [row] = await db
    .insert(jobs)
    .values({
      id: newId("job"),
      type: "lti_resync",
      status: "queued",
      scope: "admin",
      quizId,
      params: {},
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error("the job was not stored");
  wakeUps.add({ kind: "job", id: row.id });
  return row;
}

/** One delivery of a resync job's message (the jobs queue): up to CHUNKS_PER_DELIVERY chunks, then the next delivery. */
export async function runResyncJob(db: Database, wakeUps: WakeUps, jobId: string): Promise<void> {
  const [job] = await db.select().from(jobs).where(eq(jobs.id, jobId));
  if (job?.type !== "lti_resync" || job.status === "succeeded" || job.status === "failed") return;
  if (job.status === "queued")
    await db.run(sql`
      UPDATE jobs SET status = 'running', updated_at = ${isoNow()},
        total = (SELECT count(*) FROM lti_passbacks WHERE quiz_id = ${job.quizId})
      WHERE id = ${job.id} AND status = 'queued'`);
  let cursor = job.cursor;
  for (let chunk = 0; chunk < CHUNKS_PER_DELIVERY; chunk++) {
    const rows = await db
      .select({ id: ltiPassbacks.id })
      .from(ltiPassbacks)
      .where(and(eq(ltiPassbacks.quizId, job.quizId), cursor === null ? undefined : gt(ltiPassbacks.id, cursor)))
      .orderBy(asc(ltiPassbacks.id))
      .limit(RESYNC_CHUNK);
    const ids = rows.map((r) => r.id);
    const last = ids.at(-1) ?? cursor;
    const finished = ids.length < RESYNC_CHUNK;
    const stamp = crypto.randomUUID();
    const now = isoNow();
    const holds = sql`EXISTS (SELECT 1 FROM jobs WHERE id = ${job.id} AND chunk_token = ${stamp})`;
    const [moved] = await db.$client.batch([
      statement(
        db,
        sql`UPDATE jobs SET cursor = ${last}, chunk_token = ${stamp}, done = done + ${ids.length}, updated_at = ${now}
            WHERE id = ${job.id} AND status = 'running' AND cursor IS ${cursor}`,
      ),
      statement(
        db,
        sql`UPDATE lti_passbacks SET status = 'pending', version = version + 1, attempts = 0,
              next_retry_at = CASE WHEN status = 'pending' THEN next_retry_at END, updated_at = ${now}
            WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND ${holds}`,
      ),
      ...(finished
        ? [
            statement(
              db,
              sql`UPDATE jobs SET status = 'succeeded', total = done, finished_at = ${now}, updated_at = ${now}
                  WHERE id = ${job.id} AND chunk_token = ${stamp}`,
            ),
          ]
        : []),
    ]);
    if (moved?.meta.changes !== 1) return; // another delivery ran this chunk
    wakeUps.add(...ids.map((id) => ({ kind: "lti_passback" as const, id })));
    if (finished) return;
    cursor = last;
  }
  wakeUps.add({ kind: "job", id: job.id });
}
