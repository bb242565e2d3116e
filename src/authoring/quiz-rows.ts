import type { quizzes } from "../db/schema";
import { readSettings } from "../domain/quiz-settings";

/** A quiz's row and its representation, for the API and for events: shared by quizzes and imports. */

export type QuizRow = typeof quizzes.$inferSelect;

/** The quiz as the API shows it, with its question count. */
export function serializeQuiz(row: QuizRow, questionTotal: number) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    questions: questionTotal,
    settings: readSettings(row.settings),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
