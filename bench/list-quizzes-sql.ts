/**
 * The SQL the app sends for the first page of quizzes (src/routes/quizzes/quizzes.service.ts,
 * listQuizzes: the text drizzle's builder writes for it, kept as a constant), which the baseline
 * worker runs as is. The bench checks at start that the app still sends exactly this. (A module of
 * its own: a worker's entry may export handlers only.)
 */
export const LIST_QUIZZES_SQL =
  'select "id", "title", "description", "settings", "created_at", "updated_at", "question_count" from "quizzes" order by "quizzes"."id" asc limit ?';
