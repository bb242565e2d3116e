import { type SQL, sql } from "drizzle-orm";
import { MICRO_POINTS_PER_POINT } from "../domain/points";

/**
 * The statements that keep item analysis's sufficient statistics (docs/item-analysis.md): placed
 * in the batch of a grade or a regrade, after the statement that claims the submission, and
 * conditioned on that claim. Values ride in one JSON parameter, so a quiz of any length stays
 * under D1's 100 bound parameters per statement.
 */

/** Who a graded submission belongs to, and its place among the user's attempts. */
export interface GradedSubmission {
  quizId: string;
  userId: string;
  attempt: number;
}

/** One presented question's points, micro-points: earned and possible; and the options chosen. */
export interface AnswerPoints {
  question_id: string;
  x: number;
  p: number;
  chosen?: string[];
}

/** The submission is its user's earliest graded one at this quiz (evaluated after its claim). */
const isFirst = ({ quizId, userId, attempt }: GradedSubmission) =>
  sql`NOT EXISTS (SELECT 1 FROM submissions WHERE quiz_id = ${quizId} AND user_id = ${userId} AND status = 'graded' AND attempt < ${attempt})`;

/** The user's earliest graded submission after this one: the "first" this grade displaces. */
const displacedFirst = ({ quizId, userId, attempt }: GradedSubmission) =>
  sql`(SELECT id FROM submissions WHERE quiz_id = ${quizId} AND user_id = ${userId} AND status = 'graded' AND attempt > ${attempt} ORDER BY attempt LIMIT 1)`;

/** The populations a change counts in: always "all"; "first" where the submission is its user's first. */
const populations = (first: SQL) => sql`(SELECT 'all' AS attempts UNION ALL SELECT 'first' WHERE ${first})`;

const itemUpsert = sql`
  ON CONFLICT (quiz_id, attempts, question_id) DO UPDATE SET
    n = n + excluded.n, sum_x = sum_x + excluded.sum_x, sum_xx = sum_xx + excluded.sum_xx, sum_p = sum_p + excluded.sum_p,
    sum_t = sum_t + excluded.sum_t, sum_tt = sum_tt + excluded.sum_tt, sum_xt = sum_xt + excluded.sum_xt`;

const totalsUpsert = sql`
  ON CONFLICT (quiz_id, attempts) DO UPDATE SET n = n + excluded.n, sum_t = sum_t + excluded.sum_t, sum_tt = sum_tt + excluded.sum_tt`;

/**
 * A grade: the submission's sums are added to "all", and to "first" when it is its user's
 * earliest graded submission; a later-created submission graded before it was "first" until now,
 * and its sums (read from its stored results) are taken out of "first" in the same statements.
 */
export function itemStatsOnGrade(graded: GradedSubmission, answers: AnswerPoints[], total: number, won: SQL): SQL[] {
  const { quizId } = graded;
  const first = isFirst(graded);
  const displaced = displacedFirst(graded);
  const rows = JSON.stringify(answers.map((a) => [a.question_id, a.x, a.p]));
  const chosen = JSON.stringify(answers.flatMap((a) => (a.chosen ?? []).map((option) => [a.question_id, option])));
  const storedX = sql`CAST(round(json_extract(r.value, '$.points_earned') * ${MICRO_POINTS_PER_POINT}) AS INTEGER)`;
  const storedP = sql`CAST(round(json_extract(r.value, '$.points_possible') * ${MICRO_POINTS_PER_POINT}) AS INTEGER)`;
  const storedT = sql`CAST(round(f.points_earned * ${MICRO_POINTS_PER_POINT}) AS INTEGER)`;
  return [
    sql`
      INSERT INTO item_stats (quiz_id, attempts, question_id, n, sum_x, sum_xx, sum_p, sum_t, sum_tt, sum_xt)
      SELECT ${quizId}, attempts, question_id, n, x, xx, p, t, tt, xt FROM (
        SELECT m.attempts, a.question_id, 1 AS n, a.x, a.x * a.x AS xx, a.p, a.t, a.t * a.t AS tt, a.x * a.t AS xt
        FROM (SELECT json_extract(value, '$[0]') AS question_id, json_extract(value, '$[1]') AS x,
                json_extract(value, '$[2]') AS p, ${total} AS t FROM json_each(${rows})) a, ${populations(first)} m
        UNION ALL
        SELECT 'first', d.question_id, -1, -d.x, -(d.x * d.x), -d.p, -d.t, -(d.t * d.t), -(d.x * d.t)
        FROM (SELECT json_extract(r.value, '$.question_id') AS question_id, ${storedX} AS x, ${storedP} AS p, ${storedT} AS t
              FROM submissions f, json_each(f.results) r WHERE f.id = ${displaced} AND ${first}) d
      ) WHERE ${won}
      ${itemUpsert}`,
    sql`
      INSERT INTO item_totals (quiz_id, attempts, n, sum_t, sum_tt)
      SELECT ${quizId}, attempts, n, t, tt FROM (
        SELECT m.attempts, 1 AS n, ${total} AS t, ${total} * ${total} AS tt FROM ${populations(first)} m
        UNION ALL
        SELECT 'first', -1, -t, -(t * t) FROM (SELECT ${storedT} AS t FROM submissions f WHERE f.id = ${displaced} AND ${first})
      ) WHERE ${won}
      ${totalsUpsert}`,
    sql`
      INSERT INTO item_option_counts (quiz_id, attempts, question_id, option_id, count, sum_t)
      SELECT ${quizId}, attempts, question_id, option_id, count, t FROM (
        SELECT m.attempts, json_extract(c.value, '$[0]') AS question_id, json_extract(c.value, '$[1]') AS option_id, 1 AS count,
          ${total} AS t
        FROM json_each(${chosen}) c, ${populations(first)} m
        UNION ALL
        SELECT 'first', json_extract(r.value, '$.question_id'), o.value, -1, -${storedT}
        FROM submissions f, json_each(f.results) r, json_each(r.value, '$.chosen') o WHERE f.id = ${displaced} AND ${first}
      ) WHERE ${won}
      ON CONFLICT (quiz_id, attempts, question_id, option_id) DO UPDATE SET
        count = count + excluded.count, sum_t = sum_t + excluded.sum_t`,
  ];
}

/**
 * A regrade of a graded submission: the presented questions and the options chosen stay, the
 * points move. Each item's sums and the totals get the difference between the new and the old
 * contribution, in "all" and, where the submission is its user's first, in "first".
 */
export function itemStatsOnRegrade(
  graded: GradedSubmission,
  before: { answers: AnswerPoints[]; total: number },
  after: { answers: AnswerPoints[]; total: number },
  claimed: SQL,
): SQL[] {
  const { quizId } = graded;
  const first = isFirst(graded);
  const old = new Map(before.answers.map((a) => [a.question_id, a]));
  const rows = JSON.stringify(
    after.answers.map((a) => {
      const was = old.get(a.question_id);
      return [a.question_id, was?.x ?? 0, a.x, was?.p ?? 0, a.p];
    }),
  );
  const t0 = before.total;
  const t1 = after.total;
  const chosen = JSON.stringify(after.answers.flatMap((a) => (a.chosen ?? []).map((option) => [a.question_id, option])));
  return [
    sql`
      INSERT INTO item_stats (quiz_id, attempts, question_id, n, sum_x, sum_xx, sum_p, sum_t, sum_tt, sum_xt)
      SELECT ${quizId}, m.attempts, d.question_id, 0, d.x1 - d.x0, d.x1 * d.x1 - d.x0 * d.x0, d.p1 - d.p0,
        ${t1} - ${t0}, ${t1} * ${t1} - ${t0} * ${t0}, d.x1 * ${t1} - d.x0 * ${t0}
      FROM (SELECT json_extract(value, '$[0]') AS question_id, json_extract(value, '$[1]') AS x0, json_extract(value, '$[2]') AS x1,
              json_extract(value, '$[3]') AS p0, json_extract(value, '$[4]') AS p1 FROM json_each(${rows})) d, ${populations(first)} m
      WHERE ${claimed}
      ${itemUpsert}`,
    sql`
      INSERT INTO item_totals (quiz_id, attempts, n, sum_t, sum_tt)
      SELECT ${quizId}, m.attempts, 0, ${t1} - ${t0}, ${t1} * ${t1} - ${t0} * ${t0} FROM ${populations(first)} m WHERE ${claimed}
      ${totalsUpsert}`,
    // The options chosen stay; the total their choosers scored moves.
    sql`
      UPDATE item_option_counts SET sum_t = sum_t + ${t1 - t0}
      WHERE quiz_id = ${quizId} AND attempts IN (SELECT attempts FROM ${populations(first)}) AND ${claimed}
        AND EXISTS (SELECT 1 FROM json_each(${chosen}) c
                    WHERE json_extract(c.value, '$[0]') = question_id AND json_extract(c.value, '$[1]') = option_id)`,
  ];
}
