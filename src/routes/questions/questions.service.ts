import { and, asc, eq, gt, gte, ne, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { questions, questionVersions, quizzes } from "../../db/schema";
import { mergeQuestionPatch } from "../../domain/question-patch";
import { TYPE_FIELDS } from "../../domain/questions";
import { shownDefinition } from "../../domain/reveal";
import type { Database } from "../../env";
import { conflict, errorChainText, notFound, validationFailed } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import { fieldErrors } from "../../lib/validation";
import { MAX_QUESTIONS_PER_QUIZ, optionIds, type Question, QuestionInput } from "./questions.schemas";

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
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Copies the current version of the questions `where` selects into question_versions, in the
 * batch that wrote them: a new version gets its row, an unchanged version gets its feedback
 * and explanation updated (those do not change grading, so they make no new version).
 */
export function snapshotVersions(db: Database, where: SQL) {
  return db
    .insert(questionVersions)
    .select(
      db
        .select({
          questionId: questions.id,
          version: questions.version,
          type: questions.type,
          points: questions.points,
          definition: questions.definition,
          feedback: questions.feedback,
          explanation: questions.explanation,
          createdAt: questions.updatedAt,
        })
        .from(questions)
        .where(where),
    )
    .onConflictDoUpdate({
      target: [questionVersions.questionId, questionVersions.version],
      set: { feedback: sql`excluded.feedback`, explanation: sql`excluded.explanation` },
    });
}

/** The question as the API shows it; its key fields only when `revealKeys` (see domain/reveal). */
export function serializeQuestion(row: QuestionRow, revealKeys: boolean): Question {
  return {
    id: row.id,
    quiz_id: row.quizId,
    type: row.type,
    prompt: row.prompt,
    points: row.points,
    position: row.position,
    feedback: row.feedback,
    explanation: row.explanation,
    ...shownDefinition(row.definition, revealKeys),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
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

/*
 * Positions (and the question limit) are computed by SQL inside each batch, from what is stored
 * when the batch runs: numbers read before it would let concurrent requests collide, leaving
 * gaps or duplicate positions, or pass the limit.
 */
const questionTotal = (quizId: string) => sql`(SELECT count(*) FROM questions AS q WHERE q.quiz_id = ${quizId})`;
/** A question's stored position (null once it is gone). */
const storedPosition = (questionId: string) => sql`(SELECT q.position FROM questions AS q WHERE q.id = ${questionId})`;
const limitReached = () => conflict("question_limit_reached", `A quiz holds at most ${MAX_QUESTIONS_PER_QUIZ} questions.`);

/** Adds a question at `position` (default: last); the questions at and after it move down one. */
export async function createQuestion(db: Database, quizId: string, input: QuestionInput & { position?: number }) {
  await requireQuiz(db, quizId);
  const now = isoNow();
  const row = questionRow(quizId, input, 0, now);
  const total = questionTotal(quizId);
  // NULL when the quiz is full: the NOT NULL constraint then fails the batch, which rolls back whole.
  const position = sql<number>`CASE WHEN ${total} < ${MAX_QUESTIONS_PER_QUIZ} THEN min(${input.position ?? MAX_QUESTIONS_PER_QUIZ + 1}, ${total} + 1) END`;
  const insert = db
    .insert(questions)
    .values({ ...row, position })
    .returning({ position: questions.position });
  const statements: Batch = [insert, snapshotVersions(db, eq(questions.id, row.id)), touchQuiz(db, quizId, now)];
  if (input.position !== undefined)
    statements.unshift(
      db
        .update(questions)
        .set({ position: sql`${questions.position} + 1` })
        .where(and(eq(questions.quizId, quizId), gte(questions.position, input.position))),
    );
  let results: unknown[];
  try {
    results = await db.batch(statements);
  } catch (error) {
    const text = errorChainText(error);
    if (text.includes("NOT NULL constraint failed: questions.position")) throw limitReached();
    if (text.includes("FOREIGN KEY")) throw notFound("Quiz"); // deleted since requireQuiz
    throw error;
  }
  const [inserted] = results[input.position === undefined ? 0 : 1] as { position: number }[];
  if (!inserted) throw limitReached();
  return { ...row, position: inserted.position };
}

export async function updateQuestion(
  db: Database,
  quizId: string,
  questionId: string,
  patch: Record<string, unknown> & { position?: number },
) {
  const current = await getQuestion(db, quizId, questionId);
  const { position: requested, ...fields } = patch;
  const parsed = QuestionInput.safeParse(mergeQuestionPatch(current, fields));
  if (!parsed.success) throw validationFailed(fieldErrors(parsed.error));

  const now = isoNow();
  // The id, creation time and (unless moved) position stay as stored.
  const {
    id: _id,
    createdAt: _createdAt,
    position: _position,
    version: _version,
    ...fresh
  } = questionRow(quizId, parsed.data, 0, now);
  // A change to what grading reads makes a new version; compared in SQL with what is stored
  // when the batch runs, so concurrent patches each count.
  const changes = {
    ...fresh,
    version: sql`${questions.version} + CASE WHEN ${questions.type} IS NOT ${fresh.type} OR ${questions.points} IS NOT ${fresh.points}
      OR ${questions.definition} IS NOT ${JSON.stringify(fresh.definition)} THEN 1 ELSE 0 END`,
  };
  const statements: BatchItem<"sqlite">[] = [];
  let write = db.update(questions).set(changes).where(eq(questions.id, current.id)).returning();
  if (requested !== undefined) {
    const from = storedPosition(current.id);
    const to = sql<number>`min(${requested}, ${questionTotal(quizId)})`;
    // Close the gap the question leaves and open one where it goes, before it is written there.
    statements.push(
      db
        .update(questions)
        .set({
          position: sql`${questions.position} + CASE
            WHEN ${questions.position} >= ${to} AND ${questions.position} < ${from} THEN 1
            WHEN ${questions.position} > ${from} AND ${questions.position} <= ${to} THEN -1
            ELSE 0 END`,
        })
        .where(and(eq(questions.quizId, quizId), ne(questions.id, current.id))),
    );
    write = db
      .update(questions)
      .set({ ...changes, position: to })
      .where(eq(questions.id, current.id))
      .returning();
  }
  statements.push(write, snapshotVersions(db, eq(questions.id, current.id)), touchQuiz(db, quizId, now));
  const results = await db.batch(statements as Batch);
  const [row] = results[statements.indexOf(write)] as QuestionRow[];
  if (!row) throw notFound("Question");
  return row;
}

export async function deleteQuestion(db: Database, quizId: string, questionId: string) {
  const current = await getQuestion(db, quizId, questionId);
  const now = isoNow();
  const [, deleted] = await db.batch([
    // Runs first, so the subquery still finds the question's stored position.
    db
      .update(questions)
      .set({ position: sql`${questions.position} - 1` })
      .where(and(eq(questions.quizId, quizId), gt(questions.position, storedPosition(current.id)))),
    db.delete(questions).where(eq(questions.id, current.id)).returning({ id: questions.id }),
    touchQuiz(db, quizId, now),
  ]);
  if (deleted.length === 0) throw notFound("Question");
}
