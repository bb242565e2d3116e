import { type SQL, sql } from "drizzle-orm";
import { questions, questionVersions } from "../db/schema";
import { ANSWER_ROW_BUDGET, answerRowBytes } from "../domain/answers";
import { withoutAnswerKey } from "../domain/events";
import { moduleOf } from "../domain/question-types";
import { gradableQuestion } from "../domain/questions";
import { shownCommentary, shownDefinition } from "../domain/reveal";
import type { Database } from "../env";
import { validationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import type { Question } from "./question.schemas";
import type { StoredQuestionInput } from "./question-content";

/** A question's row, its versions, and its representations: for the API and for events. */

export type QuestionRow = typeof questions.$inferSelect;

/**
 * The row for a validated question; position is set by the caller. The definition is its type
 * module's (domain/question-types): every list entry with its id, the key in its usual form (a
 * matching written as pairs becomes prompts, choices and correct_matches, and an ordering without
 * correct_order is in the order its items are listed).
 */
export function questionRow(quizId: string, input: StoredQuestionInput, position: number, now: string): QuestionRow {
  const { type, prompt, points, feedback, explanation, pool, title, tags, content_format: contentFormat } = input;
  const definition = moduleOf(input).definition(input);
  const id = newId("question");
  return {
    id,
    quizId,
    position,
    type,
    prompt,
    contentFormat,
    points,
    definition,
    feedback,
    explanation: explanation ?? null,
    pool: pool ?? null,
    title: title ?? null,
    tags: tags ?? [],
    version: 1,
    answerBytes: answerRowBytes(gradableQuestion({ id, type, points, feedback, explanation: explanation ?? null, definition })),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Copies the current version of the questions `where` selects into question_versions, in the
 * batch that wrote them: a new version gets its row, an unchanged version gets its feedback,
 * explanation and definition updated (what changed there does not change grading — option
 * feedback, in the definition — so it makes no new version).
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
      set: { feedback: sql`excluded.feedback`, explanation: sql`excluded.explanation`, definition: sql`excluded.definition` },
    });
}

/**
 * The question as the API shows it: its key (key fields, feedback, explanation, the order of items
 * and choices) only when `revealKeys` (see domain/reveal).
 */
export function serializeQuestion(row: QuestionRow, revealKeys: boolean): Question {
  return {
    id: row.id,
    quiz_id: row.quizId,
    type: row.type,
    content_format: row.contentFormat,
    prompt: row.prompt,
    points: row.points,
    position: row.position,
    title: row.title,
    tags: row.tags,
    ...shownCommentary(row, revealKeys),
    pool: row.pool,
    ...shownDefinition(row.definition, revealKeys),
    version: row.version,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/**
 * The question as its events carry it: as a credential without quizzes:write sees it (no key,
 * feedback or explanation; items and choices by id), less every field the event catalogue counts
 * as key: whoever reads events learns nothing of the key.
 */
export const questionEventObject = (row: QuestionRow) => withoutAnswerKey(serializeQuestion(row, false));

/** 400 for questions whose answers could overflow a submission's row (docs/security.md, bounded rows), at `path`. */
export const rowBudgetExceeded = (path: string) =>
  validationFailed([
    {
      path,
      message: `Answers to the quiz's questions could take more than ${ANSWER_ROW_BUDGET} bytes of a submission's row (D1 stores at most 1 000 000 a row): use fewer questions, blanks or options.`,
    },
  ]);

/** SQL: the answer bytes of the quiz's questions but `except`, plus `adding`, stay within the budget. */
export const withinRowBudget = (quizId: string, adding: number, except?: string): SQL =>
  sql`(SELECT coalesce(sum(answer_bytes), 0) FROM questions WHERE quiz_id = ${quizId}${except === undefined ? sql`` : sql` AND id != ${except}`}) + ${adding} <= ${ANSWER_ROW_BUDGET}`;
