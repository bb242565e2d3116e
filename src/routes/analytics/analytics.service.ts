import { sql } from "drizzle-orm";
import { fromMicro, POINT_DECIMALS } from "../../domain/points";
import { bucketBounds, SCORE_BUCKET_COUNT } from "../../domain/score-distribution";
import type { Database } from "../../env";
import { notFound } from "../../lib/errors";

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

interface QuizStatsRow {
  quiz_id: string;
  total_attempts: number | null;
  unique_users: number | null;
  mean_score: number | null;
  m2_score: number | null;
  min_score: number | null;
  max_score: number | null;
  buckets: string | null;
  questions: string;
}

/**
 * One query, whatever the number of submissions: the aggregates kept current by grading, the
 * current questions (in order) with theirs, then questions deleted since they were graded (by
 * id, i.e. creation order): graded results keep them, so the analytics do too.
 */
export async function quizAnalytics(db: Database, quizId: string) {
  const [row] = await db.all<QuizStatsRow>(sql`
    SELECT q.id AS quiz_id, s.total_attempts, s.unique_users, s.mean_score, s.m2_score, s.min_score, s.max_score, s.buckets,
      (SELECT json_group_array(json_array(id, attempts, correct_count, micro)) FROM (
         SELECT qs.id, coalesce(st.attempts, 0) AS attempts, coalesce(st.correct_count, 0) AS correct_count,
           coalesce(st.points_earned_micro, 0) AS micro, 0 AS deleted, qs.position
         FROM questions qs LEFT JOIN question_stats st ON st.quiz_id = qs.quiz_id AND st.question_id = qs.id
         WHERE qs.quiz_id = ${quizId}
         UNION ALL
         SELECT st.question_id, st.attempts, st.correct_count, st.points_earned_micro, 1, 0
         FROM question_stats st
         WHERE st.quiz_id = ${quizId} AND NOT EXISTS (SELECT 1 FROM questions x WHERE x.id = st.question_id)
         ORDER BY deleted, position, id)) AS questions
    FROM quizzes q LEFT JOIN quiz_stats s ON s.quiz_id = q.id
    WHERE q.id = ${quizId}`);
  if (!row) throw notFound("Quiz");
  const n = row.total_attempts ?? 0;
  const buckets = row.buckets ? (JSON.parse(row.buckets) as number[]) : Array<number>(SCORE_BUCKET_COUNT).fill(0);
  const questions = JSON.parse(row.questions) as [string, number, number, number][];
  return {
    quiz_id: row.quiz_id,
    total_attempts: n,
    unique_users: row.unique_users ?? 0,
    avg_score: n > 0 ? round(row.mean_score ?? 0, 2) : 0,
    min_score: n > 0 ? row.min_score : null,
    max_score: n > 0 ? row.max_score : null,
    stddev_score: n > 0 ? round(Math.sqrt(Math.max(row.m2_score ?? 0, 0) / n), 2) : null,
    score_distribution: buckets.map((count, i) => ({ ...bucketBounds(i), count })),
    questions: questions.map(([question_id, attempts, correct_count, micro]) => ({
      question_id,
      attempts,
      correct_count,
      correct_rate: attempts > 0 ? round(correct_count / attempts, 4) : 0,
      avg_points: attempts > 0 ? round(fromMicro(micro) / attempts, POINT_DECIMALS) : 0,
    })),
  };
}

interface UserStatsRow {
  user_id: string;
  total_attempts: number | null;
  quizzes_taken: number | null;
  mean_score: number | null;
  min_score: number | null;
  max_score: number | null;
  last_graded_at: string | null;
}

export async function userAnalytics(db: Database, userId: string) {
  const [row] = await db.all<UserStatsRow>(sql`
    SELECT u.id AS user_id, s.total_attempts, s.quizzes_taken, s.mean_score, s.min_score, s.max_score, s.last_graded_at
    FROM users u LEFT JOIN user_stats s ON s.user_id = u.id
    WHERE u.id = ${userId} AND u.deleted_at IS NULL`);
  if (!row) throw notFound("User");
  const n = row.total_attempts ?? 0;
  return {
    user_id: row.user_id,
    quizzes_taken: row.quizzes_taken ?? 0,
    avg_score: n > 0 ? round(row.mean_score ?? 0, 2) : 0,
    total_attempts: n,
    min_score: n > 0 ? row.min_score : null,
    max_score: n > 0 ? row.max_score : null,
    last_graded_at: row.last_graded_at,
  };
}
