import { eq, sql } from "drizzle-orm";
import { contentOptions } from "../authoring/question-content";
import type { QuizRow } from "../authoring/quiz-rows";
import { commit, type WakeUps } from "../db/after-commit";
import { jobs, quizzes } from "../db/schema";
import { statement } from "../db/statements";
import type { ImportErrorCode } from "../domain/jobs";
import { DEFAULT_SETTINGS } from "../domain/quiz-settings";
import type { Database } from "../env";
import { type ImportResult, InterchangeError, readQuestionBank } from "../interchange";
import type { JobRow } from "../jobs/jobs";
import { errorChainText } from "../lib/errors";
import { logger } from "../lib/log";
import { textProblem } from "../lib/text";
import { isoNow } from "../lib/time";
import { deleteUnwritten, type HashedImage, hashImages, putImages, referredAssets, resolveImages } from "./assets";
import { planImport, type TargetQuiz } from "./plan";
import { importResult } from "./report";
import type { ImportParams } from "./start";
import { deleteUpload, readUpload } from "./uploads";
import { importBatch } from "./write";

/**
 * One delivery of an import job's message (the jobs queue): the file read from R2 and parsed, the
 * questions planned against the quiz as stored and written in one batch with the job's result;
 * or the job failed with `{ code, detail }` and nothing written. Either way the file is deleted.
 * The whole import is one step: a 10 MiB package of 200 items reads and writes well within one
 * invocation's CPU and D1's statement limit (about 400 statements), see docs/performance.md.
 */

/** How often a quiz that changed between planning and writing is planned again. */
const WRITE_ATTEMPTS = 3;

class ImportFailure extends Error {
  constructor(
    readonly code: ImportErrorCode,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** One delivery of an import job, read once by the consumer (src/worker/queue.ts) and handed over as its row. */
export async function runImportJob(env: Env, db: Database, wakeUps: WakeUps, job: JobRow): Promise<void> {
  if (job.status === "succeeded" || job.status === "failed") return deleteUpload(env, job.id);
  if (job.status === "queued")
    await db.run(sql`UPDATE jobs SET status = 'running', updated_at = ${isoNow()} WHERE id = ${job.id} AND status = 'queued'`);
  try {
    await importFile(env, db, wakeUps, job);
  } catch (error) {
    if (!(error instanceof ImportFailure)) throw error; // retried by the queue, then failed by the dead-letter queue
    await failImport(env, db, job.id, error.code, error.detail);
    return;
  }
  await deleteUpload(env, job.id);
}

async function importFile(env: Env, db: Database, wakeUps: WakeUps, job: JobRow): Promise<void> {
  const params = job.params as unknown as ImportParams;
  const bytes = await readUpload(env, job.id);
  if (!bytes) throw new ImportFailure("internal_error", "The uploaded file is no longer stored; upload it again.");
  let read: ImportResult;
  try {
    read = readQuestionBank(bytes, { format: params.format, mediaType: params.media_type, origin: params.origin });
  } catch (error) {
    if (error instanceof InterchangeError) throw new ImportFailure(error.code, error.detail);
    // Reading is pure work on the file's bytes: a delivery again would fail the same way, so the
    // file is refused on this one (and the reader's slip logged), never retried into internal_error.
    logger(env).error("import reader failed", { job_id: job.id, format: params.format, error: errorChainText(error) });
    throw new ImportFailure(
      "unreadable_file",
      `The file could not be read as ${params.format}: the reader stopped on its content.`,
    );
  }
  const target = await targetQuiz(db, job, params);
  const hashed = await hashImages(read.images ?? []);
  const put = new Set<string>();
  let written = new Set<string>();
  try {
    return await writeImport(env, db, wakeUps, job, params, read, target, hashed, put, (ids) => {
      written = ids;
    });
  } finally {
    // Whatever happened, no object of this delivery stays without its row.
    await deleteUnwritten(env, put, written);
  }
}

async function writeImport(
  env: Env,
  db: Database,
  wakeUps: WakeUps,
  job: JobRow,
  params: ImportParams,
  read: ImportResult,
  first: TargetQuiz,
  hashed: HashedImage[],
  put: Set<string>,
  wrote: (ids: Set<string>) => void,
): Promise<void> {
  let target = first;
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const now = isoNow();
    // KaTeX only when an item is HTML holding TeX (no origin: an imported img names an asset by its path);
    // the write's TeX budget starts afresh with each plan.
    const content = await contentOptions(read.items.map((item) => item.question));
    // The images as stored now (an image already an asset is that asset), then the plan that names them.
    const images = await resolveImages(db, read, hashed, now);
    const plan = planImport(read, target, now, content);
    const assets = referredAssets(plan.rows, images);
    await putImages(env, assets.fresh, hashed, put);
    const newQuiz = params.new_quiz ? quizRow(job.quizId, quizTitle(params, read, now), now) : undefined;
    const result = importResult(params.format, plan.rows.length > 0 ? job.quizId : null, plan.report);
    const batch = importBatch(db, {
      jobId: job.id,
      token: crypto.randomUUID(),
      now,
      newQuiz,
      quizId: job.quizId,
      questionCount: target.questionCount,
      rows: plan.rows,
      assets: assets.fresh,
      requiredAssets: assets.required,
      result,
    });
    try {
      await commit(db, wakeUps, batch);
      wrote(new Set(assets.fresh.map((row) => row.id)));
      return;
    } catch (error) {
      const text = errorChainText(error);
      if (text.includes("FOREIGN KEY"))
        throw new ImportFailure("not_found", "The quiz was deleted before the import was written.");
      // Another delivery finished the job, or the quiz changed since it was read: read both again.
      if (
        !text.includes("NOT NULL constraint failed: questions.position") &&
        !text.includes("UNIQUE constraint failed: quizzes.id")
      )
        throw error;
      const again = await afterConflict(db, job, params);
      if (again === "finished") return;
      target = again;
    }
  }
  throw new Error(`import ${job.id}: the quiz kept changing while it was written`);
}

/** SQL: the answer bytes of the quiz's questions (domain/answers answerRowBytes). */
const answerBytesOf = (quizId: string) =>
  sql<number>`(SELECT coalesce(sum(answer_bytes), 0) FROM questions WHERE quiz_id = ${quizId})`.mapWith(Number);

/** The quiz as stored now: its question count and answer bytes (a new quiz: empty). */
async function targetQuiz(db: Database, job: JobRow, params: ImportParams): Promise<TargetQuiz> {
  if (params.new_quiz) return { id: job.quizId, questionCount: 0, answerBytes: 0 };
  const [quiz] = await db
    .select({ count: quizzes.questionCount, bytes: answerBytesOf(job.quizId) })
    .from(quizzes)
    .where(eq(quizzes.id, job.quizId));
  if (!quiz) throw new ImportFailure("not_found", "The quiz was deleted before the import was written.");
  return { id: job.quizId, questionCount: quiz.count, answerBytes: quiz.bytes };
}

/**
 * After a write that did not hold: the job's status and the quiz as stored now, in one read;
 * "finished" when another delivery has ended the job meanwhile.
 */
async function afterConflict(db: Database, job: JobRow, params: ImportParams): Promise<TargetQuiz | "finished"> {
  const [row] = await db
    .select({ status: jobs.status, count: quizzes.questionCount, bytes: answerBytesOf(job.quizId) })
    .from(jobs)
    .leftJoin(quizzes, eq(quizzes.id, jobs.quizId))
    .where(eq(jobs.id, job.id));
  if (row?.status === "succeeded" || row?.status === "failed") return "finished";
  if (params.new_quiz) return { id: job.quizId, questionCount: 0, answerBytes: 0 };
  if (row?.count === null || row?.count === undefined)
    throw new ImportFailure("not_found", "The quiz was deleted before the import was written.");
  return { id: job.quizId, questionCount: row.count, answerBytes: row.bytes };
}

/** A new quiz's title: the request's, else the file's when the API would accept it, else a dated default. */
function quizTitle(params: ImportParams, read: ImportResult, now: string): string {
  if (params.title) return params.title;
  const fromFile = read.title?.replace(/\s+/g, " ").trim().slice(0, 200);
  if (fromFile && textProblem(fromFile, false) === undefined) return fromFile;
  return `Imported questions (${now.slice(0, 10)})`;
}

const quizRow = (id: string, title: string, now: string): QuizRow => ({
  id,
  title,
  description: "",
  settings: DEFAULT_SETTINGS,
  createdAt: now,
  updatedAt: now,
  // The triggers on questions count the questions the batch inserts.
  questionCount: 0,
});

/** Ends the job as failed with why; nothing of the file was written. The file is deleted. */
export async function failImport(env: Env, db: Database, jobId: string, code: ImportErrorCode, detail: string) {
  const now = isoNow();
  await db.$client.batch([
    statement(
      db,
      sql`UPDATE jobs SET status = 'failed', error = ${detail.slice(0, 1000)}, error_code = ${code}, finished_at = ${now}, updated_at = ${now}
          WHERE id = ${jobId} AND status IN ('queued', 'running')`,
    ),
  ]);
  await deleteUpload(env, jobId);
}
