import type { z } from "@hono/zod-openapi";
import { and, asc, count, eq, gt, inArray, sql } from "drizzle-orm";
import { assetReferenceStatements, refuseUnknownAssets, unknownAssetFailure } from "../../authoring/asset-references";
import { storedQuestions } from "../../authoring/question-content";
import { questionEventObject, questionRow, rowBudgetExceeded, snapshotVersions } from "../../authoring/question-rows";
import { type QuizRow, serializeQuiz as serializeQuizRow } from "../../authoring/quiz-rows";
import { commit, type WakeUps } from "../../db/after-commit";
import { concurrentUpdate, updatedAfter, WRITE_ATTEMPTS } from "../../db/optimistic";
import { eventStatement } from "../../db/outbox";
import { questions, quizzes, submissions } from "../../db/schema";
import { prepared, statement, tableRows } from "../../db/statements";
import { ANSWER_ROW_BUDGET } from "../../domain/answers";
import { previousAttributes } from "../../domain/events";
import { poolProblems, type QuizSettings, readSettings, settingsProblems } from "../../domain/quiz-settings";
import type { Database } from "../../env";
import { tightenOpenDeadlines } from "../../grading/deadline-sql";
import { conflict, errorChainText, notFound, validationFailed } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import type { Quiz, QuizCreate, QuizPatch } from "./quizzes.schemas";

/** The quiz and its question count (the quizzes row keeps it: triggers on questions, migration 0006). */
const withCount = (quiz: QuizRow) => ({ quiz, questionCount: quiz.questionCount });

const serializeQuiz = (row: QuizRow, questionTotal: number): Quiz => serializeQuizRow(row, questionTotal);

const hasSubmissions = () => conflict("quiz_has_submissions", "The quiz has submissions; it cannot be deleted.");

const QUIZ = tableRows(quizzes);
/**
 * A page of quizzes in id order, from the start or after a cursor: the text drizzle's builder
 * writes for it, built once rather than on every list request.
 */
const PAGE_FROM_START = `select ${QUIZ.columns} from "quizzes" order by "quizzes"."id" asc limit ?`;
const PAGE_AFTER = `select ${QUIZ.columns} from "quizzes" where "quizzes"."id" > ? order by "quizzes"."id" asc limit ?`;

export async function listQuizzes(db: Database, after: string | undefined, limit: number, only?: string[]) {
  if (only !== undefined) {
    const rows = await db
      .select()
      .from(quizzes)
      .where(and(inArray(quizzes.id, only), after === undefined ? undefined : gt(quizzes.id, after)))
      .orderBy(asc(quizzes.id))
      .limit(limit + 1);
    return rows.map((row) => serializeQuiz(row, row.questionCount));
  }
  const page =
    after === undefined
      ? db.$client.prepare(PAGE_FROM_START).bind(limit + 1)
      : db.$client.prepare(PAGE_AFTER).bind(after, limit + 1);
  const rows = await page.raw();
  return rows.map((values) => {
    const row = QUIZ.fromValues(values);
    return serializeQuiz(row, row.questionCount);
  });
}

export async function getQuiz(db: Database, id: string) {
  const [row] = await db.select().from(quizzes).where(eq(quizzes.id, id));
  if (!row) throw notFound("Quiz");
  return serializeQuiz(row, row.questionCount);
}

/**
 * The quiz, its inline questions and their events (quiz.created, then one question.created per
 * question) are written in one batch: all of them or none.
 */
export async function createQuiz(db: Database, wakeUps: WakeUps, input: z.infer<typeof QuizCreate>, origin?: string) {
  const stored = await storedQuestions(input.questions ?? [], origin, "questions");
  const now = isoNow();
  const quiz: QuizRow = {
    id: newId("quiz"),
    title: input.title,
    description: input.description,
    settings: input.settings,
    createdAt: now,
    updatedAt: now,
    // The triggers count the questions the batch inserts.
    questionCount: 0,
  };
  const questionRows = stored.map((q, i) => questionRow(quiz.id, q, i + 1, now));
  checkSettings(input.settings, poolSizes(questionRows));
  if (questionRows.reduce((sum, row) => sum + row.answerBytes, 0) > ANSWER_ROW_BUDGET) throw rowBudgetExceeded("questions");
  await refuseUnknownAssets(db, questionRows, (i) => `questions.${i}`);
  // The event carries the quiz as this request answers it (docs/webhooks.md), question ids included.
  const created = { ...serializeQuiz(quiz, questionRows.length), question_ids: questionRows.map((row) => row.id) };
  await commit(db, wakeUps, [
    prepared(db, db.insert(quizzes).values(quiz)),
    ...questionRows.map((row) => prepared(db, db.insert(questions).values(row))),
    prepared(db, snapshotVersions(db, eq(questions.quizId, quiz.id))),
    eventStatement(db, { type: "quiz.created", object: created }),
    ...questionRows.map((row) => eventStatement(db, { type: "question.created", object: questionEventObject(row) })),
    ...assetReferenceStatements(db, questionRows, { unknown: "refuse" }),
  ]).catch((error: unknown) => {
    throw unknownAssetFailure(error) ?? error;
  });
  return created;
}

/** How many questions each pool holds. */
const poolSizes = (rows: { pool: string | null }[]) => {
  const sizes = new Map<string, number>();
  for (const { pool } of rows) if (pool !== null) sizes.set(pool, (sizes.get(pool) ?? 0) + 1);
  return sizes;
};

/** The rules between settings, and pools against the questions they draw from: 400 naming each field. */
function checkSettings(settings: QuizSettings, sizes: ReadonlyMap<string, number>): void {
  const problems = [...settingsProblems(settings), ...poolProblems(settings.pools, sizes)];
  if (problems.length > 0) throw validationFailed(problems);
}

/** The quiz as read, with its question count and its questions' pools: a change is written only while all are unchanged. */
async function readQuiz(db: Database, id: string) {
  const [rows, pools] = await db.batch([
    db.select().from(quizzes).where(eq(quizzes.id, id)),
    db.select({ pool: questions.pool }).from(questions).where(eq(questions.quizId, id)),
  ]);
  const row = rows[0];
  if (!row) throw notFound("Quiz");
  return { ...withCount(row), poolSizes: poolSizes(pools) };
}

/** Where the quiz is still as it was read: same updated_at (questions touch it) and question count. */
const unchangedSince = (read: { quiz: QuizRow; questionCount: number }) =>
  and(eq(quizzes.id, read.quiz.id), eq(quizzes.updatedAt, read.quiz.updatedAt), eq(quizzes.questionCount, read.questionCount));

/**
 * Sets the fields sent, with a quiz.updated event naming the values they replaced. The quiz is
 * read, the result computed, and the write (with its event) made only while the quiz is still
 * as read; a quiz changed meanwhile is read again, so patches of different fields each keep
 * the other's change and each event's previous_attributes are the values its change replaced.
 * A window that ends sooner or a shorter time limit moves the deadlines of the quiz's open
 * submissions in the same batch (docs/security.md); the cron grades them once past.
 */
export async function updateQuiz(db: Database, wakeUps: WakeUps, id: string, patch: z.infer<typeof QuizPatch>) {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const read = await readQuiz(db, id);
    const settingsSent = Object.entries(patch.settings ?? {}).filter(([, value]) => value !== undefined);
    const next: QuizRow = {
      ...read.quiz,
      ...(patch.title === undefined ? {} : { title: patch.title }),
      ...(patch.description === undefined ? {} : { description: patch.description }),
      settings: { ...readSettings(read.quiz.settings), ...Object.fromEntries(settingsSent) },
      updatedAt: updatedAfter(read.quiz.updatedAt),
    };
    if (patch.settings !== undefined) checkSettings(next.settings, read.poolSizes);
    const before = serializeQuiz(read.quiz, read.questionCount);
    const after = serializeQuiz(next, read.questionCount);
    const update = db
      .update(quizzes)
      .set({
        ...(patch.title === undefined ? {} : { title: patch.title }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        // Whole: the write is made only where the quiz is as read, so no other change is undone.
        ...(patch.settings === undefined ? {} : { settings: next.settings }),
        updatedAt: next.updatedAt,
      })
      .where(unchangedSince(read));
    const movesDeadlines = patch.settings?.available_until !== undefined || patch.settings?.time_limit_seconds !== undefined;
    const [write] = await commit(db, wakeUps, [
      prepared(db, update),
      eventStatement(db, { type: "quiz.updated", object: after, previous: previousAttributes(before, after) }, "after-change"),
      // From the settings stored when it runs, so it holds whether this write or a racing one landed.
      ...(movesDeadlines ? [statement(db, tightenOpenDeadlines(id))] : []),
    ]);
    if (write?.meta.changes === 1) return after;
  }
  throw concurrentUpdate("The quiz");
}

/**
 * A quiz with submissions is never deleted: its results and analytics would be lost. The
 * quiz.deleted event carries the quiz as it was, so the delete is made only while the quiz is
 * still as read.
 */
export async function deleteQuiz(db: Database, wakeUps: WakeUps, id: string) {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const [taken, rows] = await db.batch([
      db.select({ taken: count() }).from(submissions).where(eq(submissions.quizId, id)),
      db.select().from(quizzes).where(eq(quizzes.id, id)),
    ]);
    const read = rows[0] && withCount(rows[0]);
    if (!read) throw notFound("Quiz");
    if ((taken[0]?.taken ?? 0) > 0) throw hasSubmissions();
    const [deleted] = await commit(db, wakeUps, [
      prepared(db, db.delete(quizzes).where(unchangedSince(read))),
      eventStatement(db, { type: "quiz.deleted", object: serializeQuiz(read.quiz, read.questionCount) }, "after-change"),
      statement(db, sql`DELETE FROM quiz_stats WHERE quiz_id = ${id} AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = ${id})`),
      statement(
        db,
        sql`DELETE FROM accommodations WHERE quiz_id = ${id} AND NOT EXISTS (SELECT 1 FROM quizzes WHERE id = ${id})`,
      ),
    ]).catch((error: unknown) => {
      // A submission created since the check holds a foreign key to the quiz.
      if (errorChainText(error).includes("FOREIGN KEY")) throw hasSubmissions();
      throw error;
    });
    // D1 counts the questions deleted by cascade among the changes too.
    if ((deleted?.meta.changes ?? 0) > 0) return;
  }
  throw concurrentUpdate("The quiz");
}
