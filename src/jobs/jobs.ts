import { sql } from "drizzle-orm";
import type { jobs } from "../db/schema";
import { statement } from "../db/statements";
import type { ImportErrorCode } from "../domain/jobs";
import type { QuestionType } from "../domain/question-types";
import type { Database } from "../env";
import type { ImportFormat } from "../interchange";
import { isoNow } from "../lib/time";
import { send } from "../queue/send";

/**
 * Jobs: long work run in bounded steps by the jobs queue (regrades, imports, resyncs, roster syncs). Each
 * delivery of a job's message works from the job's stored cursor; the cron hands a stalled job
 * over again and deletes finished ones after their retention.
 */

export type JobRow = typeof jobs.$inferSelect;

/** One source item's line in a finished import's report. */
export interface ImportReportLine {
  source_id: string;
  title?: string;
  status: "imported" | "approximated" | "skipped";
  question_id?: string;
  type?: QuestionType;
  notes: string[];
}

/** What a succeeded import reports (jobs.result). */
export interface ImportJobResult {
  quiz_id: string | null;
  format: ImportFormat;
  items_total: number;
  imported: number;
  approximated: number;
  skipped: number;
  report: ImportReportLine[];
}

/** What a succeeded regrade reports (jobs.result). */
interface RegradeResultBody {
  dry_run: boolean;
  submissions_considered: number;
  submissions_changed: number;
  mean_score_before: number | null;
  mean_score_after: number | null;
}

/** What a succeeded roster sync reports (jobs.result): src/lti/roster.ts. */
interface RosterResultBody {
  members: number;
  created: number;
  updated: number;
  inactive: number;
}

/**
 * A job as GET /v1/jobs/{id} answers it, by type. Regrades and resyncs report a failure as a
 * string, as they always have; an import's failure carries its code (docs/import-export.md): `{ code, detail }`,
 * from `error_code` and `error` (a failure without a code is the service's: internal_error).
 */
export function serializeJob(row: JobRow) {
  const common = {
    id: row.id,
    status: row.status,
    quiz_id: row.quizId,
    progress: { done: row.done, total: row.total ?? 0 },
    created_at: row.createdAt,
    finished_at: row.finishedAt,
  };
  switch (row.type) {
    case "import":
      return {
        ...common,
        type: row.type,
        result: (row.result ?? null) as ImportJobResult | null,
        error: row.error === null ? null : { code: (row.errorCode ?? "internal_error") as ImportErrorCode, detail: row.error },
      };
    case "lti_resync":
      return { ...common, type: row.type, result: null, error: row.error };
    case "regrade":
      return { ...common, type: row.type, result: (row.result ?? null) as RegradeResultBody | null, error: row.error };
    case "lti_roster":
      // quiz_id holds the sync's launch; its tallies are in result while it runs, shown once it succeeds.
      return {
        ...common,
        type: row.type,
        quiz_id: null,
        launch_id: row.quizId,
        result: row.status === "succeeded" ? ((row.result ?? null) as RosterResultBody | null) : null,
        error: row.error,
      };
  }
}

/** A job whose last step is this old without progress is handed to the queue again (its message was lost). */
const STALLED_AFTER_MS = 2 * 60_000;
/** Finished jobs and their changes are kept this long, then deleted, this many rows per run. */
const JOB_RETENTION_DAYS = 30;
const DELETE_BATCH = 5000;

/**
 * The cron's share of jobs: a queued or running job that has not moved for two minutes is handed
 * to the queue again (each delivery works from the stored cursor, so a duplicate costs one read),
 * and jobs finished 30 days ago are deleted with their changes, in bounded statements.
 */
export async function sweepJobs(env: Env, db: Database, nowMs = Date.now()): Promise<void> {
  const stalledBefore = isoNow(nowMs - STALLED_AFTER_MS);
  const now = isoNow(nowMs);
  const stalled = await db.all<{ id: string }>(sql`
    UPDATE jobs SET updated_at = ${now}
    WHERE id IN (SELECT id FROM jobs WHERE status IN ('queued', 'running') AND updated_at < ${stalledBefore} ORDER BY updated_at LIMIT 100)
    RETURNING id`);
  if (stalled.length > 0)
    await send(
      env,
      stalled.map((j) => ({ kind: "job", job_id: j.id })),
    );
  const cutoff = isoNow(nowMs - JOB_RETENTION_DAYS * 24 * 3600 * 1000);
  await db.$client.batch([
    statement(
      db,
      sql`DELETE FROM job_changes WHERE rowid IN (
            SELECT c.rowid FROM jobs j JOIN job_changes c ON c.job_id = j.id WHERE j.finished_at < ${cutoff} LIMIT ${DELETE_BATCH})`,
    ),
    statement(
      db,
      sql`DELETE FROM jobs WHERE id IN (SELECT id FROM jobs j WHERE j.finished_at < ${cutoff}
            AND NOT EXISTS (SELECT 1 FROM job_changes c WHERE c.job_id = j.id) LIMIT ${DELETE_BATCH})`,
    ),
  ]);
}
