import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { grades, quizzes, users } from "../../db/schema";
import { keptScore } from "../../domain/kept-grade";
import { readSettings } from "../../domain/quiz-settings";
import type { Database } from "../../env";
import { notFound } from "../../lib/errors";

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
