import type { z } from "@hono/zod-openapi";
import { asc, count, eq, gt, sql } from "drizzle-orm";
import { questions, quizStats, quizzes, submissions } from "../../db/schema";
import type { Database } from "../../env";
import { conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import { questionRow, snapshotVersions } from "../questions";
import type { Quiz, QuizCreate, QuizPatch } from "./quizzes.schemas";

type QuizRow = typeof quizzes.$inferSelect;

// Written out in full: drizzle leaves columns unqualified inside sql``, and "id" would bind to questions.id.
const questionCount = sql<number>`(SELECT count(*) FROM questions WHERE questions.quiz_id = quizzes.id)`.mapWith(Number);
const withCount = { quiz: quizzes, questionCount };

function serializeQuiz(row: QuizRow, questionTotal: number): Quiz {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    questions: questionTotal,
    settings: row.settings,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export async function listQuizzes(db: Database, after: string | undefined, limit: number) {
  const rows = await db
    .select(withCount)
    .from(quizzes)
    .where(after === undefined ? undefined : gt(quizzes.id, after))
    .orderBy(asc(quizzes.id))
    .limit(limit + 1);
  return rows.map((r) => serializeQuiz(r.quiz, r.questionCount));
}

export async function getQuiz(db: Database, id: string) {
  const [row] = await db.select(withCount).from(quizzes).where(eq(quizzes.id, id));
  if (!row) throw notFound("Quiz");
  return serializeQuiz(row.quiz, row.questionCount);
}

/** The quiz and its inline questions are written in one batch: all of them or none. */
export async function createQuiz(db: Database, input: z.infer<typeof QuizCreate>) {
  const now = isoNow();
  const quiz: QuizRow = {
    id: newId("quiz"),
    title: input.title,
    description: input.description,
    settings: input.settings,
    createdAt: now,
    updatedAt: now,
  };
  const questionRows = (input.questions ?? []).map((q, i) => questionRow(quiz.id, q, i + 1, now));
  await db.batch([
    db.insert(quizzes).values(quiz),
    ...questionRows.map((row) => db.insert(questions).values(row)),
    snapshotVersions(db, eq(questions.quizId, quiz.id)),
  ]);
  return { ...serializeQuiz(quiz, questionRows.length), question_ids: questionRows.map((row) => row.id) };
}

/**
 * One statement: only the fields sent are set, and each setting sent is set in SQL (json_set;
 * not json_patch, whose null would delete max_attempts), so concurrent patches of different
 * fields do not undo each other.
 */
function setEach(settings: Record<string, unknown>) {
  const pairs = Object.entries(settings)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => sql`${`$.${name}`}, json(${JSON.stringify(value)})`);
  return pairs.length === 0 ? sql`${quizzes.settings}` : sql`json_set(${quizzes.settings}, ${sql.join(pairs, sql`, `)})`;
}

export async function updateQuiz(db: Database, id: string, patch: z.infer<typeof QuizPatch>) {
  const [row] = await db
    .update(quizzes)
    .set({
      ...(patch.title === undefined ? {} : { title: patch.title }),
      ...(patch.description === undefined ? {} : { description: patch.description }),
      ...(patch.settings === undefined ? {} : { settings: setEach(patch.settings) }),
      updatedAt: isoNow(),
    })
    .where(eq(quizzes.id, id))
    .returning({ id: quizzes.id });
  if (!row) throw notFound("Quiz");
  return getQuiz(db, id);
}

/** A quiz with submissions is never deleted: its results and analytics would be lost. */
export async function deleteQuiz(db: Database, id: string) {
  const [{ taken } = { taken: 0 }] = await db.select({ taken: count() }).from(submissions).where(eq(submissions.quizId, id));
  if (taken > 0) throw conflict("quiz_has_submissions", "The quiz has submissions; it cannot be deleted.");
  const [deleted] = await db
    .batch([
      db.delete(quizzes).where(eq(quizzes.id, id)).returning({ id: quizzes.id }),
      db.delete(quizStats).where(eq(quizStats.quizId, id)),
    ])
    .catch((error: unknown) => {
      // A submission created since the check holds a foreign key to the quiz.
      if (String(error).includes("FOREIGN KEY"))
        throw conflict("quiz_has_submissions", "The quiz has submissions; it cannot be deleted.");
      throw error;
    });
  if (deleted.length === 0) throw notFound("Quiz");
}
