import { and, asc, count, eq, gt, gte, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { questions, quizzes } from "../../db/schema";
import type { Database } from "../../env";
import { conflict, notFound, validationFailed } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import { fieldErrors } from "../../lib/validation";
import {
  ANSWER_KEY_FIELDS,
  MAX_QUESTIONS_PER_QUIZ,
  type Question,
  QuestionInput,
  type QuestionType,
  TYPE_FIELDS,
  optionIds,
} from "./questions.schemas";

export type QuestionRow = typeof questions.$inferSelect;
type Batch = [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

/** The row for a validated question; position is set by the caller. */
export function questionRow(quizId: string, input: QuestionInput, position: number, now: string): QuestionRow {
  const { type, prompt, points, feedback, explanation } = input;
  const definition: Record<string, unknown> = {};
  for (const field of TYPE_FIELDS[type]) definition[field] = (input as Record<string, unknown>)[field];
  if ("options" in input) {
    const ids = optionIds(input.options);
    definition.options = input.options.map((o, i) => ({ id: ids[i], text: o.text }));
  }
  return {
    id: newId("question"),
    quizId,
    position,
    type,
    prompt,
    points,
    definition,
    feedback,
    explanation: explanation ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

export function serializeQuestion(row: QuestionRow, revealKeys: boolean): Question {
  const definition = { ...row.definition };
  if (!revealKeys) for (const field of ANSWER_KEY_FIELDS) delete definition[field];
  return {
    id: row.id,
    quiz_id: row.quizId,
    type: row.type as QuestionType,
    prompt: row.prompt,
    points: row.points,
    position: row.position,
    feedback: row.feedback,
    explanation: row.explanation,
    ...definition,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The question as the input it was made from, so a patch can be merged into it and revalidated. */
function asInput(row: QuestionRow): Record<string, unknown> {
  return {
    type: row.type,
    prompt: row.prompt,
    points: row.points,
    feedback: row.feedback,
    ...(row.explanation === null ? {} : { explanation: row.explanation }),
    ...row.definition,
  };
}

async function requireQuiz(db: Database, quizId: string) {
  const [quiz] = await db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.id, quizId));
  if (!quiz) throw notFound("Quiz");
}

export async function listQuestions(db: Database, quizId: string, afterPosition: number | undefined, limit: number) {
  const rows = await db
    .select()
    .from(questions)
    .where(and(eq(questions.quizId, quizId), afterPosition === undefined ? undefined : gt(questions.position, afterPosition)))
    .orderBy(asc(questions.position))
    .limit(limit + 1);
  if (rows.length === 0) await requireQuiz(db, quizId);
  return rows;
}

export async function getQuestion(db: Database, quizId: string, questionId: string) {
  const [row] = await db
    .select()
    .from(questions)
    .where(and(eq(questions.id, questionId), eq(questions.quizId, quizId)));
  if (!row) throw notFound("Question");
  return row;
}

const touchQuiz = (db: Database, quizId: string, now: string) =>
  db.update(quizzes).set({ updatedAt: now }).where(eq(quizzes.id, quizId));

/** Adds a question at `position` (default: last); the questions at and after it move down one. */
export async function createQuestion(db: Database, quizId: string, input: QuestionInput & { position?: number }) {
  await requireQuiz(db, quizId);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(questions).where(eq(questions.quizId, quizId));
  if (total >= MAX_QUESTIONS_PER_QUIZ)
    throw conflict("question_limit_reached", `A quiz holds at most ${MAX_QUESTIONS_PER_QUIZ} questions.`);
  const now = isoNow();
  const position = Math.min(input.position ?? total + 1, total + 1);
  const row = questionRow(quizId, input, position, now);
  await db.batch([
    db
      .update(questions)
      .set({ position: sql`${questions.position} + 1` })
      .where(and(eq(questions.quizId, quizId), gte(questions.position, position))),
    db.insert(questions).values(row),
    touchQuiz(db, quizId, now),
  ]);
  return row;
}

export async function updateQuestion(
  db: Database,
  quizId: string,
  questionId: string,
  patch: Record<string, unknown> & { position?: number },
) {
  const current = await getQuestion(db, quizId, questionId);
  const { position: requested, ...fields } = patch;
  const merged = { ...asInput(current), ...fields };
  if (fields.type !== undefined && fields.type !== current.type) {
    // A new type keeps the common fields and takes its key fields from the patch alone.
    for (const field of TYPE_FIELDS[current.type as QuestionType]) if (!(field in fields)) delete merged[field];
  }
  const parsed = QuestionInput.safeParse(merged);
  if (!parsed.success) throw validationFailed(fieldErrors(parsed.error));

  const from = current.position;
  let target = from;
  if (requested !== undefined && requested !== from) {
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(questions).where(eq(questions.quizId, quizId));
    target = Math.min(requested, total);
  }
  const now = isoNow();
  const next = { ...questionRow(quizId, parsed.data, target, now), id: current.id, createdAt: current.createdAt };
  const statements: Batch = [db.update(questions).set(next).where(eq(questions.id, current.id))];
  // Close the gap the question leaves and open one where it goes, before it is written there.
  if (target < from)
    statements.unshift(
      db
        .update(questions)
        .set({ position: sql`${questions.position} + 1` })
        .where(and(eq(questions.quizId, quizId), gte(questions.position, target), lte(questions.position, from - 1))),
    );
  if (target > from)
    statements.unshift(
      db
        .update(questions)
        .set({ position: sql`${questions.position} - 1` })
        .where(and(eq(questions.quizId, quizId), gte(questions.position, from + 1), lte(questions.position, target))),
    );
  statements.push(touchQuiz(db, quizId, now));
  await db.batch(statements);
  return next;
}

export async function deleteQuestion(db: Database, quizId: string, questionId: string) {
  const current = await getQuestion(db, quizId, questionId);
  const now = isoNow();
  await db.batch([
    db.delete(questions).where(eq(questions.id, current.id)),
    db
      .update(questions)
      .set({ position: sql`${questions.position} - 1` })
      .where(and(eq(questions.quizId, quizId), gt(questions.position, current.position))),
    touchQuiz(db, quizId, now),
  ]);
}
