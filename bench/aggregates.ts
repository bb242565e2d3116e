// The analytics aggregates rebuilt from the submissions table, for data the bench inserts by
// SQL rather than grading one request at a time. Same definitions as the grading batch
// (src/routes/submissions/grade.queries.ts): graded submissions only; quiz_stats.mean_score and
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
];

/** Rebuilds every aggregate from the graded submissions, in one atomic batch. */
export async function rebuildAggregates(sql: SqlClient): Promise<void> {
  await sql.run(REBUILD.map((text) => ({ sql: text, params: [] })));
}
