// The analytics aggregates rebuilt from the submissions table, for data the bench inserts by
// SQL rather than grading one request at a time. Same definitions as the grading batch
// (src/grading/totals.ts): graded submissions only; quiz_stats.mean_score and m2_score are the
// mean and the sum of squared deviations (what Welford's update keeps); the bucket of a score is
// min(floor(score / 10), 9); grades keeps what every grading policy needs; item_sums holds item
// analysis's sums (docs/item-analysis.md) in integer micro-points, rounded per answer, one row per
// quiz and population, its doubles written with 17 digits as the grading batch writes them.

import type { SqlClient } from "./sql-client";

const BUCKET_COUNTS = Array.from({ length: 10 }, (_, i) => `sum(g.bucket = ${i})`).join(", ");
const exact = (column: string) => `json(printf('%!.17g', ${column}))`;

const REBUILD = [
  "DELETE FROM quiz_stats",
  "DELETE FROM user_stats",
  "DELETE FROM grades",
  "DELETE FROM item_sums",
  `INSERT INTO quiz_stats (quiz_id, total_attempts, unique_users, mean_score, m2_score, min_score, max_score, buckets)
   SELECT g.quiz_id, count(*), count(DISTINCT g.user_id), m.mean, sum((g.score - m.mean) * (g.score - m.mean)),
     min(g.score), max(g.score), json_array(${BUCKET_COUNTS})
   FROM (SELECT quiz_id, user_id, score, min(CAST(score / 10 AS INTEGER), 9) AS bucket FROM submissions WHERE status = 'graded') g
   JOIN (SELECT quiz_id, avg(score) AS mean FROM submissions WHERE status = 'graded' GROUP BY quiz_id) m ON m.quiz_id = g.quiz_id
   GROUP BY g.quiz_id`,
  `INSERT INTO user_stats (user_id, total_attempts, quizzes_taken, mean_score, min_score, max_score, last_graded_at)
   SELECT user_id, count(*), count(DISTINCT quiz_id), avg(score), min(score), max(score), max(graded_at)
   FROM submissions WHERE status = 'graded' GROUP BY user_id`,
  `INSERT INTO grades (quiz_id, user_id, attempts, first_attempt, first_score, latest_attempt, latest_score, highest_score, score_sum, updated_at)
   SELECT s.quiz_id, s.user_id, count(*), min(s.attempt),
     (SELECT f.score FROM submissions f WHERE f.quiz_id = s.quiz_id AND f.user_id = s.user_id AND f.status = 'graded' ORDER BY f.attempt LIMIT 1),
     max(s.attempt),
     (SELECT l.score FROM submissions l WHERE l.quiz_id = s.quiz_id AND l.user_id = s.user_id AND l.status = 'graded' ORDER BY l.attempt DESC LIMIT 1),
     max(s.score), sum(s.score), max(s.graded_at)
   FROM submissions s WHERE s.status = 'graded' GROUP BY s.quiz_id, s.user_id`,
  // Item analysis: per answer x, p, whether right, and the submission's total t in micro-points,
  // over every graded submission ("all") and each user's earliest ("first").
  `INSERT INTO item_sums (quiz_id, attempts, n, sum_t, sum_tt)
   SELECT quiz_id, attempts, count(*), sum(t), total(t * t) FROM (${populations(`
     SELECT quiz_id, user_id, attempt, CAST(round(points_earned * 1000000) AS INTEGER) AS t FROM submissions WHERE status = 'graded'`)})
   GROUP BY quiz_id, attempts`,
  `UPDATE item_sums SET items = coalesce(i.items, '{}') FROM (
     SELECT quiz_id, attempts, json_group_object(question_id,
         json_array(n, x, ${exact("xx")}, p, t, ${exact("tt")}, ${exact("xt")}, c)) AS items FROM (
       SELECT quiz_id, attempts, question_id, count(*) AS n, sum(x) AS x, total(x * x) AS xx, sum(p) AS p, sum(t) AS t,
         total(t * t) AS tt, total(x * t) AS xt, sum(c) AS c FROM (${populations(`
         SELECT s.quiz_id, s.user_id, s.attempt, json_extract(r.value, '$.question_id') AS question_id,
           CAST(round(json_extract(r.value, '$.points_earned') * 1000000) AS INTEGER) AS x,
           CAST(round(json_extract(r.value, '$.points_possible') * 1000000) AS INTEGER) AS p,
           CAST(round(s.points_earned * 1000000) AS INTEGER) AS t, coalesce(json_extract(r.value, '$.correct'), 0) AS c
         FROM submissions s, json_each(s.results) r WHERE s.status = 'graded'`)})
       GROUP BY quiz_id, attempts, question_id)
     GROUP BY quiz_id, attempts) i
   WHERE item_sums.quiz_id = i.quiz_id AND item_sums.attempts = i.attempts`,
  `UPDATE item_sums SET options = coalesce(o.options, '{}') FROM (
     SELECT quiz_id, attempts, json_group_object(question_id, json(chosen)) AS options FROM (
       SELECT quiz_id, attempts, question_id, json_group_object(option_id, json_array(c, t)) AS chosen FROM (
         SELECT quiz_id, attempts, question_id, option_id, count(*) AS c, sum(t) AS t FROM (${populations(`
           SELECT s.quiz_id, s.user_id, s.attempt, json_extract(r.value, '$.question_id') AS question_id, o.value AS option_id,
             CAST(round(s.points_earned * 1000000) AS INTEGER) AS t
           FROM submissions s, json_each(s.results) r, json_each(r.value, '$.chosen') o WHERE s.status = 'graded'`)})
         GROUP BY quiz_id, attempts, question_id, option_id)
       GROUP BY quiz_id, attempts, question_id)
     GROUP BY quiz_id, attempts) o
   WHERE item_sums.quiz_id = o.quiz_id AND item_sums.attempts = o.attempts`,
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
