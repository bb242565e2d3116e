// The analytics aggregates rebuilt from the submissions table, for data the bench inserts by
// SQL rather than grading one request at a time. Same definitions as the grading batch
// (src/grading/totals.ts): graded submissions only; quiz_stats.mean_score and
// m2_score are the mean and the sum of squared deviations (what Welford's update keeps); the
// bucket of a score is min(floor(score / 10), 9); question_stats sums points in integer
// micro-points, rounded per answer; quiz_user_stats counts graded attempts per user and quiz.

import type { SqlClient } from "./sql-client";

const BUCKET_COUNTS = Array.from({ length: 10 }, (_, i) => `sum(g.bucket = ${i})`).join(", ");

const REBUILD = [
  "DELETE FROM quiz_stats",
  "DELETE FROM question_stats",
  "DELETE FROM quiz_user_stats",
  "DELETE FROM user_stats",
  "DELETE FROM item_stats",
  "DELETE FROM item_totals",
  "DELETE FROM item_option_counts",
  `INSERT INTO quiz_stats (quiz_id, total_attempts, unique_users, mean_score, m2_score, min_score, max_score, buckets)
   SELECT g.quiz_id, count(*), count(DISTINCT g.user_id), m.mean, sum((g.score - m.mean) * (g.score - m.mean)),
     min(g.score), max(g.score), json_array(${BUCKET_COUNTS})
   FROM (SELECT quiz_id, user_id, score, min(CAST(score / 10 AS INTEGER), 9) AS bucket FROM submissions WHERE status = 'graded') g
   JOIN (SELECT quiz_id, avg(score) AS mean FROM submissions WHERE status = 'graded' GROUP BY quiz_id) m ON m.quiz_id = g.quiz_id
   GROUP BY g.quiz_id`,
  `INSERT INTO question_stats (quiz_id, question_id, attempts, correct_count, points_earned_micro)
   SELECT s.quiz_id, json_extract(r.value, '$.question_id'), count(*), sum(json_extract(r.value, '$.correct')),
     sum(CAST(round(json_extract(r.value, '$.points_earned') * 1000000) AS INTEGER))
   FROM submissions s, json_each(s.results) r WHERE s.status = 'graded'
   GROUP BY 1, 2`,
  `INSERT INTO quiz_user_stats (quiz_id, user_id, attempts)
   SELECT quiz_id, user_id, count(*) FROM submissions WHERE status = 'graded' GROUP BY 1, 2`,
  `INSERT INTO user_stats (user_id, total_attempts, quizzes_taken, mean_score, min_score, max_score, last_graded_at)
   SELECT user_id, count(*), count(DISTINCT quiz_id), avg(score), min(score), max(score), max(graded_at)
   FROM submissions WHERE status = 'graded' GROUP BY user_id`,
  // Item analysis (docs/item-analysis.md): per answer x, p and the submission's total t in
  // micro-points, over every graded submission ("all") and each user's earliest ("first").
  `INSERT INTO item_stats (quiz_id, attempts, question_id, n, sum_x, sum_xx, sum_p, sum_t, sum_tt, sum_xt)
   SELECT quiz_id, attempts, question_id, count(*), sum(x), total(x * x), sum(p), sum(t), total(t * t), total(x * t) FROM (${populations(`
     SELECT s.quiz_id, s.user_id, s.attempt, json_extract(r.value, '$.question_id') AS question_id,
       CAST(round(json_extract(r.value, '$.points_earned') * 1000000) AS INTEGER) AS x,
       CAST(round(json_extract(r.value, '$.points_possible') * 1000000) AS INTEGER) AS p,
       CAST(round(s.points_earned * 1000000) AS INTEGER) AS t
     FROM submissions s, json_each(s.results) r WHERE s.status = 'graded'`)})
   GROUP BY quiz_id, attempts, question_id`,
  `INSERT INTO item_totals (quiz_id, attempts, n, sum_t, sum_tt)
   SELECT quiz_id, attempts, count(*), sum(t), total(t * t) FROM (${populations(`
     SELECT quiz_id, user_id, attempt, CAST(round(points_earned * 1000000) AS INTEGER) AS t FROM submissions WHERE status = 'graded'`)})
   GROUP BY quiz_id, attempts`,
  `INSERT INTO item_option_counts (quiz_id, attempts, question_id, option_id, count)
   SELECT quiz_id, attempts, question_id, option_id, count(*) FROM (${populations(`
     SELECT s.quiz_id, s.user_id, s.attempt, json_extract(r.value, '$.question_id') AS question_id, o.value AS option_id
     FROM submissions s, json_each(s.results) r, json_each(r.value, '$.chosen') o WHERE s.status = 'graded'`)})
   GROUP BY quiz_id, attempts, question_id, option_id`,
];

/** Rows of every graded submission tagged "all", and again "first" for each user's earliest attempt. */
function populations(rows: string): string {
  return `SELECT 'all' AS attempts, v.* FROM (${rows}) v
    UNION ALL
    SELECT 'first', v.* FROM (${rows}) v WHERE v.attempt = (SELECT min(f.attempt) FROM submissions f
      WHERE f.quiz_id = v.quiz_id AND f.user_id = v.user_id AND f.status = 'graded')`;
}

/** Rebuilds every aggregate from the graded submissions, in one atomic batch. */
export async function rebuildAggregates(sql: SqlClient): Promise<void> {
  await sql.run(REBUILD.map((text) => ({ sql: text, params: [] })));
}
