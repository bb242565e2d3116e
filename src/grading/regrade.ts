import { and, asc, eq, gt, inArray, type SQL, sql } from "drizzle-orm";
import { commit, type WakeUps } from "../db/after-commit";
import { eventStatement } from "../db/outbox";
import { jobs, questions, quizzes, submissions } from "../db/schema";
import { statement } from "../db/statements";
import type { StoredAnswerResult } from "../domain/grading";
import type { RegradePolicy } from "../domain/jobs";
import { gradableQuestion } from "../domain/questions";
import { type FeedbackBand, readSettings } from "../domain/quiz-settings";
import { type CurrentQuestion, type Regraded, regradeChanges, regradeSubmission } from "../domain/regrade";
import type { Database } from "../env";
import type { JobRow } from "../jobs/jobs";
import { logger } from "../lib/log";
import { isoNow } from "../lib/time";
import { type SubmissionRow, serializeSubmission } from "./submission";
import { countGraded, movedStatements, quizScoreRange } from "./totals";

/** What POST /v1/quizzes/{id}/regrade stores as the job's params. */
export interface RegradeParams {
  question_ids: string[] | null;
  policy: RegradePolicy;
  dry_run: boolean;
}

/** Submissions read and regraded per batch, at most. */
const REGRADE_CHUNK = 40;
/**
 * D1 statements one invocation may run (the platform allows 1 000). A submission costs at most
 * its claim, then either the moved aggregates (5: item sums, quiz, user, grade, and the statement of
 * the kept grade's one follower, the LTI ledger: kept-grade-followers.ts) or, when it completes a review by the regrade, every aggregate counted afresh (6,
 * submission.graded included) — whatever the number of questions, as a quiz's item sums are one
 * statement — then its change row and submission.regraded; a retry of a submission whose claim was
 * lost as much again, plus one read.
 */
const REGRADE_STATEMENT_BUDGET = 900;
const MOVED_STATEMENTS = 5;
const COUNTED_STATEMENTS = 6;
const STATEMENTS_PER_SUBMISSION = 1 + Math.max(MOVED_STATEMENTS, COUNTED_STATEMENTS) + 2;
/**
 * The most statements one more chunk can take: a dry run writes at most a change row per
 * submission; an applied chunk the claim and the aggregates of each, and a retry of each.
 */
const chunkWorst = (dryRun: boolean, chunk: number) =>
  1 + (dryRun ? 1 + chunk : 2 + chunk * STATEMENTS_PER_SUBMISSION + chunk * (1 + STATEMENTS_PER_SUBMISSION));
/** The largest chunk (≤ REGRADE_CHUNK) whose worst case fits a fresh invocation's budget. */
const chunkFor = (dryRun: boolean) => {
  let chunk = REGRADE_CHUNK;
  while (chunk > 1 && 3 + chunkWorst(dryRun, chunk) > REGRADE_STATEMENT_BUDGET) chunk--;
  return chunk;
};
/** How often a submission whose claim another writer took is read and regraded again. */
const CLAIM_ATTEMPTS = 3;

interface Context {
  env: Env;
  db: Database;
  wakeUps: WakeUps;
  job: JobRow;
  params: RegradeParams;
  current: Map<string, CurrentQuestion>;
  bands: FeedbackBand[];
  now: string;
  used: number;
  /** Submissions per chunk. */
  chunk: number;
}

/** A submission regraded in memory, and what the batch must do about it. */
interface Planned {
  row: SubmissionRow;
  regraded: Regraded;
  /** docs/item-analysis.md's change: score or any points earned. */
  changed: boolean;
}

/**
 * One delivery of a regrade job: chunks of up to REGRADE_CHUNK graded submissions after the job's
 * cursor, each read once and written in one atomic batch, until the statement budget would run
 * out; then the next delivery is queued. Every batch starts by moving the cursor from the value it
 * read (stamping a fresh chunk token) and everything else in it is conditioned on that stamp, so
 * a delivery that runs twice, or after a failure, applies each chunk once and resumes where the
 * last committed chunk ended.
 */
export async function runRegradeJob(env: Env, db: Database, wakeUps: WakeUps, jobId: string): Promise<void> {
  const [jobRows, settingsRows, questionRows] = await db.batch([
    db.select().from(jobs).where(eq(jobs.id, jobId)),
    db
      .select({ settings: quizzes.settings })
      .from(quizzes)
      .where(inArray(quizzes.id, db.select({ quizId: jobs.quizId }).from(jobs).where(eq(jobs.id, jobId)))),
    db
      .select()
      .from(questions)
      .where(inArray(questions.quizId, db.select({ quizId: jobs.quizId }).from(jobs).where(eq(jobs.id, jobId)))),
  ]);
  const job = jobRows[0];
  if (!job || job.status === "succeeded" || job.status === "failed") return;
  const quiz = settingsRows[0];
  if (!quiz) return failJob(db, job.id, "The quiz no longer exists.");
  const params = job.params as unknown as RegradeParams;
  const ctx: Context = {
    env,
    db,
    wakeUps,
    job,
    params,
    current: new Map(questionRows.map((q) => [q.id, { question: gradableQuestion(q), version: q.version }])),
    bands: readSettings(quiz.settings).feedback_bands,
    now: isoNow(),
    used: 3,
    chunk: chunkFor(params.dry_run),
  };
  if (job.status === "queued") await start(ctx);
  while (ctx.used + chunkWorst(params.dry_run, ctx.chunk) <= REGRADE_STATEMENT_BUDGET) {
    const step = await runChunk(ctx);
    if (step === "lost") return;
    if (step === "finished") return;
  }
  wakeUps.add({ kind: "job", id: jobId });
}

/** The job's total: the graded submissions presented any listed question, counted once. */
async function start(ctx: Context): Promise<void> {
  const { db, job } = ctx;
  const listed = presentsListed(ctx, sql`s.results`);
  await db.run(sql`
    UPDATE jobs SET status = 'running', updated_at = ${ctx.now},
      total = (SELECT count(*) FROM submissions s WHERE s.quiz_id = ${job.quizId} AND s.status IN ('graded', 'needs_review') AND ${listed})
    WHERE id = ${job.id} AND status = 'queued'`);
  ctx.used += 1;
  job.status = "running";
}

/** SQL: the results hold an answer to a listed question (every current question when none are listed). */
function presentsListed(ctx: Context, results: SQL): SQL {
  const ids = ctx.params.question_ids ?? [...ctx.current.keys()];
  return sql`EXISTS (SELECT 1 FROM json_each(${results}) r WHERE json_extract(r.value, '$.question_id') IN (SELECT value FROM json_each(${JSON.stringify(ids)})))`;
}

function considers(ctx: Context, results: readonly StoredAnswerResult[]): boolean {
  const listed = ctx.params.question_ids;
  return results.some((e) => (listed === null ? ctx.current.has(e.question_id) : listed.includes(e.question_id)));
}

function plan(ctx: Context, row: SubmissionRow): Planned {
  const { params } = ctx;
  const listed = params.question_ids === null ? null : new Set(params.question_ids);
  const responses = new Map(row.answers.map((a) => [a.question_id, a.response]));
  const results = row.results ?? [];
  const regraded = regradeSubmission(results, responses, ctx.current, listed, params.policy, ctx.bands);
  return { row, regraded, changed: regradeChanges({ score: row.score ?? 0 }, regraded) };
}

async function runChunk(ctx: Context): Promise<"more" | "finished" | "lost"> {
  const { db, job } = ctx;
  const rows = await db
    .select()
    .from(submissions)
    .where(
      and(
        eq(submissions.quizId, job.quizId),
        inArray(submissions.status, ["graded", "needs_review"]),
        job.cursor === null ? undefined : gt(submissions.id, job.cursor),
      ),
    )
    .orderBy(asc(submissions.id))
    .limit(ctx.chunk);
  ctx.used += 1;
  const considered = rows.filter((r) => considers(ctx, r.results ?? [])).map((r) => plan(ctx, r));
  const chunkToken = crypto.randomUUID();
  const cursor = rows.at(-1)?.id ?? job.cursor;
  const sumBefore = considered.reduce((s, p) => s + (p.row.score ?? 0), 0);
  const holds = sql`EXISTS (SELECT 1 FROM jobs WHERE id = ${job.id} AND chunk_token = ${chunkToken})`;
  const writes: SQL[] = [
    sql`UPDATE jobs SET cursor = ${cursor}, chunk_token = ${chunkToken}, done = done + ${considered.length},
          sum_before = sum_before + ${sumBefore}, updated_at = ${ctx.now}
        WHERE id = ${job.id} AND status = 'running' AND cursor IS ${job.cursor}`,
  ];
  const claims: { planned: Planned; index: number; token: string }[] = [];
  const events: D1PreparedStatement[] = [];
  for (const planned of considered) {
    if (ctx.params.dry_run) {
      if (planned.changed) writes.push(changeRow(job.id, planned, holds));
      continue;
    }
    if (!planned.regraded.rewritten && !planned.changed && !planned.regraded.moved) continue;
    const token = crypto.randomUUID();
    claims.push({ planned, index: writes.length, token });
    const applied = applyStatements(ctx, planned, token, holds);
    writes.push(...applied.statements);
    events.push(...applied.events);
  }
  // A chunk with nothing after it finishes the job in the same batch.
  const finished = rows.length < ctx.chunk;
  const outcome = await commit(db, ctx.wakeUps, [
    ...writes.map((w) => statement(db, w)),
    ...events,
    ...(finished ? finishStatements(ctx, chunkToken).map((w) => statement(db, w)) : []),
  ]);
  ctx.used += writes.length + events.length + (finished ? 2 : 0);
  if (outcome[0]?.meta.changes !== 1) return "lost"; // another delivery ran this chunk
  job.cursor = cursor;
  const missed = claims.filter((c) => outcome[c.index]?.meta.changes !== 1);
  for (const { planned } of missed) await retrySubmission(ctx, planned);
  return finished ? "finished" : "more";
}

/** A submission whose claim another writer took between the read and the write: read and regraded again. */
async function retrySubmission(ctx: Context, first: Planned): Promise<void> {
  const { db, job } = ctx;
  for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
    const [row] = await db.select().from(submissions).where(eq(submissions.id, first.row.id));
    ctx.used += 1;
    if (row?.status !== "graded" && row?.status !== "needs_review") return;
    const planned = plan(ctx, row);
    if (!planned.regraded.rewritten && !planned.changed && !planned.regraded.moved) return;
    const token = crypto.randomUUID();
    const { statements, events } = applyStatements(ctx, planned, token, sql`1`);
    // The mean before counts the score this read found.
    const adjust = sql`UPDATE jobs SET sum_before = sum_before + ${(row.score ?? 0) - (first.row.score ?? 0)} WHERE id = ${job.id}
      AND EXISTS (SELECT 1 FROM submissions WHERE id = ${row.id} AND grade_token = ${token})`;
    const outcome = await commit(db, ctx.wakeUps, [...[...statements, adjust].map((w) => statement(db, w)), ...events]);
    ctx.used += statements.length + 1 + events.length;
    if (outcome[0]?.meta.changes === 1) return;
  }
  logger(ctx.env).warn("regrade left a submission that kept changing", { job: job.id, submission: first.row.id });
}

function changeRow(jobId: string, { row, regraded }: Planned, when: SQL): SQL {
  return sql`
    INSERT INTO job_changes (job_id, submission_id, user_id, score_before, score_after)
    SELECT ${jobId}, ${row.id}, ${row.userId}, ${row.score ?? 0}, ${regraded.score} WHERE ${when}
    ON CONFLICT (job_id, submission_id) DO UPDATE SET score_after = excluded.score_after`;
}

/**
 * An applied regrade of one submission: its claim (results, score and a new grade token, only
 * while its token is the one read and, in a chunk, while the chunk's stamp holds), then every
 * aggregate moved by the difference, conditioned on that claim.
 */
function applyStatements(ctx: Context, planned: Planned, token: string, holds: SQL) {
  const { db, job, now } = ctx;
  const { row, regraded: r, changed } = planned;
  // A submission that waited only for essays that are essays no more (their question's type
  // changed) waits for nothing: it is graded now, and counted like a last review would count it.
  const completes = row.status === "needs_review" && !r.results.some((e) => e.pending);
  const status = completes ? "graded" : row.status;
  const gradedAt = completes ? now : row.gradedAt;
  const claim = sql`
    UPDATE submissions SET status = ${status}, results = ${JSON.stringify(r.results)}, score = ${r.score},
      points_earned = ${r.points_earned}, points_possible = ${r.points_possible}, feedback = ${r.feedback},
      grade_token = ${token}, graded_at = ${gradedAt}, updated_at = ${now}
    WHERE id = ${row.id} AND status = ${row.status} AND grade_token IS ${row.gradeToken} AND ${holds}`;
  const statements: SQL[] = [claim];
  const events: D1PreparedStatement[] = [];
  if (!r.moved && !changed && !completes) return { statements, events };
  const claimed = sql`EXISTS (SELECT 1 FROM submissions WHERE id = ${row.id} AND grade_token = ${token})`;
  const x0 = row.score ?? 0;
  const after: SubmissionRow = {
    ...row,
    status,
    results: r.results,
    score: r.score,
    pointsEarned: r.points_earned,
    pointsPossible: r.points_possible,
    feedback: r.feedback,
    gradedAt,
    updatedAt: now,
  };
  // A submission that needs review is counted nowhere yet: only its row changes, unless it completes.
  if (row.status === "graded") statements.push(...movedStatements(row, r, claimed, now));
  if (completes) events.push(...countGraded(db, after, claimed));
  if (!changed) return { statements, events };
  statements.push(changeRow(job.id, planned, claimed));
  events.push(
    eventStatement(db, { type: "submission.regraded", object: serializeSubmission(after), previous: { score: x0 } }, claimed),
  );
  return { statements, events };
}

/**
 * The last chunk's batch also ends the job: the result from the job's sums and its changes, and
 * (applied) the quiz's lowest and highest scores read again, as a regrade may have lowered the
 * highest or raised the lowest.
 */
function finishStatements(ctx: Context, chunkToken: string): SQL[] {
  const { job, now, params } = ctx;
  const changes = sql`(SELECT count(*) FROM job_changes WHERE job_id = ${job.id})`;
  const delta = sql`coalesce((SELECT sum(score_after - score_before) FROM job_changes WHERE job_id = ${job.id}), 0)`;
  const statements = [
    sql`
      UPDATE jobs SET status = 'succeeded', total = done, finished_at = ${now}, updated_at = ${now},
        result = json_object(
          'dry_run', json(${params.dry_run ? "true" : "false"}),
          'submissions_considered', done,
          'submissions_changed', ${changes},
          'mean_score_before', CASE WHEN done > 0 THEN round(sum_before / done, 2) END,
          'mean_score_after', CASE WHEN done > 0 THEN round((sum_before + ${delta}) / done, 2) END)
      WHERE id = ${job.id} AND chunk_token = ${chunkToken}`,
  ];
  statements.push(
    params.dry_run
      ? sql`SELECT 1`
      : quizScoreRange(job.quizId, sql`EXISTS (SELECT 1 FROM jobs WHERE id = ${job.id} AND chunk_token = ${chunkToken})`),
  );
  return statements;
}

/** A job that cannot go on: failed, with why; the quiz's lowest and highest scores read again. */
export async function failJob(db: Database, jobId: string, why: string): Promise<void> {
  const now = isoNow();
  const quizId = sql`(SELECT quiz_id FROM jobs WHERE id = ${jobId})`;
  await db.$client.batch([
    statement(
      db,
      sql`UPDATE jobs SET status = 'failed', error = ${why}, finished_at = ${now}, updated_at = ${now}
          WHERE id = ${jobId} AND status IN ('queued', 'running')`,
    ),
    statement(db, quizScoreRange(quizId)),
  ]);
}
