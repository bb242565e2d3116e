import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { Schema } from "./call";

/**
 * Analytics recomputed from scratch with plain SQL over the submissions table (only
 * status = 'graded' rows), independent of the aggregates that grading keeps current
 * (quiz_stats, user_stats, question_stats). Tests compare the API's analytics with these.
 */

interface RecomputedQuestion {
  question_id: string;
  attempts: number;
  correct_count: number;
  avg_points: number;
}

export interface RecomputedQuiz {
  quiz_id: string;
  total_attempts: number;
  unique_users: number;
  avg_score: number;
  min_score: number | null;
  max_score: number | null;
  stddev_score: number | null;
  score_distribution: { from: number; to: number; count: number }[];
  questions: RecomputedQuestion[];
}

export interface RecomputedUser {
  user_id: string;
  quizzes_taken: number;
  total_attempts: number;
  avg_score: number;
  min_score: number | null;
  max_score: number | null;
  last_graded_at: string | null;
}

const BUCKETS = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: (i + 1) * 10 }));

// Written out bucket by bucket, not with floor(score / 10), so it does not share the API's formula.
const bucketColumns = BUCKETS.map(
  ({ from, to }, i) => `coalesce(sum(score >= ${from} AND score ${to === 100 ? "<=" : "<"} ${to}), 0) AS b${i}`,
).join(", ");

export async function recomputeQuizAnalytics(quizId: string): Promise<RecomputedQuiz> {
  const totals = await env.DB.prepare(
    `SELECT count(*) AS n, count(DISTINCT user_id) AS users, avg(score) AS mean, min(score) AS lo, max(score) AS hi,
       (SELECT sqrt(avg((g.score - m.mean) * (g.score - m.mean)))
          FROM submissions g, (SELECT avg(score) AS mean FROM submissions WHERE quiz_id = ?1 AND status = 'graded') m
          WHERE g.quiz_id = ?1 AND g.status = 'graded') AS stddev,
       ${bucketColumns}
     FROM submissions WHERE quiz_id = ?1 AND status = 'graded'`,
  )
    .bind(quizId)
    .first<Record<string, number | null>>();
  const { results: questions } = await env.DB.prepare(
    `SELECT json_extract(r.value, '$.question_id') AS question_id, count(*) AS attempts,
       sum(json_extract(r.value, '$.correct')) AS correct_count, avg(json_extract(r.value, '$.points_earned')) AS avg_points
     FROM submissions s, json_each(s.results) r
     WHERE s.quiz_id = ?1 AND s.status = 'graded'
     GROUP BY 1 ORDER BY 1`,
  )
    .bind(quizId)
    .all<RecomputedQuestion>();
  const n = Number(totals?.n ?? 0);
  return {
    quiz_id: quizId,
    total_attempts: n,
    unique_users: Number(totals?.users ?? 0),
    avg_score: n > 0 ? Number(totals?.mean) : 0,
    min_score: n > 0 ? Number(totals?.lo) : null,
    max_score: n > 0 ? Number(totals?.hi) : null,
    stddev_score: n > 0 ? Number(totals?.stddev) : null,
    score_distribution: BUCKETS.map((bucket, i) => ({ ...bucket, count: Number(totals?.[`b${i}`] ?? 0) })),
    questions,
  };
}

export async function recomputeUserAnalytics(userId: string): Promise<RecomputedUser> {
  const row = await env.DB.prepare(
    `SELECT count(*) AS n, count(DISTINCT quiz_id) AS quizzes, avg(score) AS mean, min(score) AS lo, max(score) AS hi,
       max(graded_at) AS last
     FROM submissions WHERE user_id = ?1 AND status = 'graded'`,
  )
    .bind(userId)
    .first<{ n: number; quizzes: number; mean: number | null; lo: number | null; hi: number | null; last: string | null }>();
  const n = row?.n ?? 0;
  return {
    user_id: userId,
    quizzes_taken: row?.quizzes ?? 0,
    total_attempts: n,
    avg_score: n > 0 ? Number(row?.mean) : 0,
    min_score: n > 0 ? row!.lo : null,
    max_score: n > 0 ? row!.hi : null,
    last_graded_at: row?.last ?? null,
  };
}

const TOLERANCE = 1e-9;
const roundTo = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/**
 * The API rounds averages to `decimals` places; `actual` must be the exact value rounded the
 * same way, within 1e-9. Where the exact value lies on a rounding midpoint (within 1e-9), the
 * running aggregates may land a hair either side of it, so either neighbour is accepted.
 */
function expectRounded(actual: number | null, exact: number | null, decimals: number, label: string): void {
  if (exact === null || actual === null) {
    expect(actual, label).toBe(exact);
    return;
  }
  const scale = 10 ** decimals;
  const candidates = [roundTo(exact, decimals)];
  const fraction = exact * scale - Math.floor(exact * scale);
  if (Math.abs(fraction - 0.5) * (1 / scale) <= TOLERANCE) {
    candidates.push(Math.floor(exact * scale) / scale, Math.ceil(exact * scale) / scale);
  }
  const ok = candidates.some((c) => Math.abs(actual - c) <= TOLERANCE);
  expect(ok, `${label}: API ${actual}, recomputed ${exact} (expected one of ${candidates.join(", ")})`).toBe(true);
}

/** The API's quiz analytics equal the recomputed ones, field by field. */
export function expectQuizAnalyticsMatch(api: Schema<"QuizAnalytics">, exact: RecomputedQuiz): void {
  expect(api.quiz_id).toBe(exact.quiz_id);
  expect(api.total_attempts, "total_attempts").toBe(exact.total_attempts);
  expect(api.unique_users, "unique_users").toBe(exact.unique_users);
  expectRounded(api.avg_score, exact.avg_score, 2, "avg_score");
  expectRounded(api.min_score, exact.min_score, 2, "min_score");
  expectRounded(api.max_score, exact.max_score, 2, "max_score");
  expectRounded(api.stddev_score, exact.stddev_score, 2, "stddev_score");
  expect(api.score_distribution, "score_distribution").toEqual(exact.score_distribution);
  // Questions nobody has answered yet (added after the last grade) are listed by the API with zeros only.
  const answered = api.questions.filter((q) => q.attempts > 0);
  expect(answered.map((q) => q.question_id).sort(), "questions with attempts").toEqual(
    exact.questions.map((q) => q.question_id).sort(),
  );
  for (const q of api.questions) {
    const e = exact.questions.find((x) => x.question_id === q.question_id);
    if (!e) {
      expect(q, `question ${q.question_id} without graded answers`).toMatchObject({
        attempts: 0,
        correct_count: 0,
        correct_rate: 0,
        avg_points: 0,
      });
      continue;
    }
    expect(q.attempts, `${q.question_id}.attempts`).toBe(e.attempts);
    expect(q.correct_count, `${q.question_id}.correct_count`).toBe(e.correct_count);
    expectRounded(q.correct_rate, e.correct_count / e.attempts, 4, `${q.question_id}.correct_rate`);
    expectRounded(q.avg_points, e.avg_points, 6, `${q.question_id}.avg_points`);
  }
}

/** The API's user analytics equal the recomputed ones, field by field. */
export function expectUserAnalyticsMatch(api: Schema<"UserAnalytics">, exact: RecomputedUser): void {
  expect(api.user_id).toBe(exact.user_id);
  expect(api.total_attempts, "total_attempts").toBe(exact.total_attempts);
  expect(api.quizzes_taken, "quizzes_taken").toBe(exact.quizzes_taken);
  expectRounded(api.avg_score, exact.avg_score, 2, "avg_score");
  expectRounded(api.min_score, exact.min_score, 2, "min_score");
  expectRounded(api.max_score, exact.max_score, 2, "max_score");
  expect(api.last_graded_at, "last_graded_at").toBe(exact.last_graded_at);
}
