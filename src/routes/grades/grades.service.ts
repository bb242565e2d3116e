import { and, asc, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import { grades, quizzes, users } from "../../db/schema";
import { keptScore } from "../../domain/attempts";
import { readSettings } from "../../domain/quiz-settings";
import type { Database } from "../../env";
import { notFound } from "../../lib/errors";

/**
 * The statement that keeps a user's grade at a quiz current, in the grading batch and only where
 * its claim (`won`) stands: the attempt count, the first and latest scores by attempt number, the
 * highest and the sum — enough for every policy, so a read is one row and a policy change needs
 * no recomputation. (SQLite evaluates every SET expression on the row as it was.)
 */
export function keepGrade(grade: { quizId: string; userId: string; attempt: number; score: number; at: string }, won: SQL): SQL {
  const { quizId, userId, attempt, score, at } = grade;
  return sql`
    INSERT INTO grades (quiz_id, user_id, attempts, first_attempt, first_score, latest_attempt, latest_score, highest_score, score_sum, updated_at)
    SELECT ${quizId}, ${userId}, 1, ${attempt}, ${score}, ${attempt}, ${score}, ${score}, ${score}, ${at} WHERE ${won}
    ON CONFLICT (quiz_id, user_id) DO UPDATE SET
      attempts = attempts + 1,
      first_score = CASE WHEN excluded.first_attempt < first_attempt THEN excluded.first_score ELSE first_score END,
      first_attempt = min(first_attempt, excluded.first_attempt),
      latest_score = CASE WHEN excluded.latest_attempt > latest_attempt THEN excluded.latest_score ELSE latest_score END,
      latest_attempt = max(latest_attempt, excluded.latest_attempt),
      highest_score = max(highest_score, excluded.highest_score),
      score_sum = score_sum + excluded.score_sum,
      updated_at = excluded.updated_at`;
}

type GradeRow = typeof grades.$inferSelect;

function serializeGrade(row: GradeRow, settings: unknown) {
  const policy = readSettings((settings ?? {}) as Record<string, unknown>).grading_policy;
  return {
    quiz_id: row.quizId,
    user_id: row.userId,
    attempts: row.attempts,
    kept_score: keptScore(row, policy),
    policy,
  };
}

/** A quiz's grades by user id, or a user's by quiz id; 404 for an unknown quiz or user. One round trip. */
export async function listGrades(
  db: Database,
  owner: { quizId: string } | { userId: string },
  after: string | undefined,
  limit: number,
) {
  const byQuiz = "quizId" in owner;
  const exists = byQuiz
    ? db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.id, owner.quizId))
    : db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, owner.userId), isNull(users.deletedAt)));
  const sortKey = byQuiz ? grades.userId : grades.quizId;
  const [found, rows] = await db.batch([
    exists,
    db
      .select({ grade: grades, settings: quizzes.settings })
      .from(grades)
      .innerJoin(quizzes, eq(quizzes.id, grades.quizId))
      .where(
        and(
          byQuiz ? eq(grades.quizId, owner.quizId) : eq(grades.userId, owner.userId),
          after === undefined ? undefined : gt(sortKey, after),
        ),
      )
      .orderBy(asc(sortKey))
      .limit(limit + 1),
  ]);
  if (found.length === 0) throw notFound(byQuiz ? "Quiz" : "User");
  return rows.map((r) => serializeGrade(r.grade, r.settings));
}
