import { sql } from "drizzle-orm";
import { type ItemSumsTuple, itemSumsOf } from "../../domain/item-analysis";
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
  /** The current questions' ids in order (JSON). */
  current: string;
  /** Item analysis's sums over every graded submission (JSON), whose items hold each question's figures. */
  items: string | null;
}

/**
 * One query, whatever the number of submissions: the aggregates kept current by grading, and the
 * per-question figures from item analysis's sums over every graded submission (an item's n is the
 * attempts, its Σx the points, its right answers the correct count): the current questions in
 * order, then questions deleted since they were graded (by id, i.e. creation order), which graded
 * results keep, so the analytics do too.
 */
export async function quizAnalytics(db: Database, quizId: string) {
  const [row] = await db.all<QuizStatsRow>(sql`
    SELECT q.id AS quiz_id, s.total_attempts, s.unique_users, s.mean_score, s.m2_score, s.min_score, s.max_score, s.buckets,
      (SELECT json_group_array(id) FROM (SELECT id FROM questions WHERE quiz_id = q.id ORDER BY position)) AS current,
      (SELECT items FROM item_sums WHERE quiz_id = q.id AND attempts = 'all') AS items
    FROM quizzes q LEFT JOIN quiz_stats s ON s.quiz_id = q.id
    WHERE q.id = ${quizId}`);
  if (!row) throw notFound("Quiz");
  const n = row.total_attempts ?? 0;
  const buckets = row.buckets ? (JSON.parse(row.buckets) as number[]) : Array<number>(SCORE_BUCKET_COUNT).fill(0);
  // A Map, not an object: a question id is data.
  const items = new Map(Object.entries(row.items === null ? {} : (JSON.parse(row.items) as Record<string, ItemSumsTuple>)));
  const current = JSON.parse(row.current) as string[];
  const shown = new Set(current);
  const deleted = [...items.keys()].filter((id) => !shown.has(id)).sort();
  return {
    quiz_id: row.quiz_id,
    total_attempts: n,
    unique_users: row.unique_users ?? 0,
    avg_score: n > 0 ? round(row.mean_score ?? 0, 2) : 0,
    min_score: n > 0 ? row.min_score : null,
    max_score: n > 0 ? row.max_score : null,
    stddev_score: n > 0 ? round(Math.sqrt(Math.max(row.m2_score ?? 0, 0) / n), 2) : null,
    score_distribution: buckets.map((count, i) => ({ ...bucketBounds(i), count })),
    questions: [...current, ...deleted].map((question_id) => {
      const { n: attempts, right: correct_count, sum_x } = itemSumsOf(items.get(question_id));
      return {
        question_id,
        attempts,
        correct_count,
        correct_rate: attempts > 0 ? round(correct_count / attempts, 4) : 0,
        avg_points: attempts > 0 ? round(fromMicro(sum_x) / attempts, POINT_DECIMALS) : 0,
      };
    }),
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
