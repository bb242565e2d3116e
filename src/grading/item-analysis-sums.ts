import { type SQL, sql } from "drizzle-orm";
import { MICRO_POINTS_PER_POINT } from "../domain/points";

/**
 * The statement that keeps item analysis's sufficient statistics (docs/item-analysis.md): placed
 * in the batch of a grade, a review or a regrade, after the statement that claims the submission,
 * and conditioned on that claim. A quiz's sums live in one item_sums row per population, its items
 * and options as JSON; the statement merges the submission's contribution into each row it counts
 * in, so a grade writes one or two rows whatever the number of questions. Values ride in JSON
 * parameters, so a quiz of any length stays under D1's 100 bound parameters per statement.
 */

/** Who a graded submission belongs to, and its place among the user's attempts. */
export interface GradedSubmission {
  quizId: string;
  userId: string;
  attempt: number;
}

/** One presented question's points, micro-points: earned and possible; whether right; the options chosen. */
export interface AnswerPoints {
  question_id: string;
  x: number;
  p: number;
  right: boolean;
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

/**
 * A double written so that it reads back bit for bit: SQLite's JSON writes 15 significant digits,
 * which would round the sums of products a little on every grade.
 */
const exact = (column: string) => sql.raw(`json(printf('%!.17g', ${column}))`);

/**
 * The items JSON `existing` with `delta` added: `delta` is a SELECT of (q, n, x, xx, p, t, tt, xt,
 * c) rows, several per question allowed. Integer sums stay integers; products are summed as
 * doubles (total(), which never fails on overflow) as the REAL columns they replace were.
 */
function mergedItems(existing: SQL, delta: SQL): SQL {
  return sql`(SELECT json_group_object(q, json_array(n, x, ${exact("xx")}, p, t, ${exact("tt")}, ${exact("xt")}, c)) FROM (
    SELECT q, sum(n) AS n, sum(x) AS x, total(xx) AS xx, sum(p) AS p, sum(t) AS t, total(tt) AS tt, total(xt) AS xt, sum(c) AS c
    FROM (SELECT key AS q, value ->> 0 AS n, value ->> 1 AS x, value ->> 2 AS xx, value ->> 3 AS p, value ->> 4 AS t,
            value ->> 5 AS tt, value ->> 6 AS xt, value ->> 7 AS c FROM json_each(${existing})
          UNION ALL ${delta})
    GROUP BY q))`;
}

/** The options JSON `existing` with `delta`, a SELECT of (q, o, c, t) rows, added. */
function mergedOptions(existing: SQL, delta: SQL): SQL {
  return sql`(SELECT json_group_object(q, json(o)) FROM (
    SELECT q, json_group_object(o, json_array(c, t)) AS o FROM (
      SELECT q, o, sum(c) AS c, sum(t) AS t
      FROM (SELECT i.key AS q, v.key AS o, v.value ->> 0 AS c, v.value ->> 1 AS t FROM json_each(${existing}) i, json_each(i.value) v
            UNION ALL ${delta})
      GROUP BY q, o)
    GROUP BY q))`;
}

const EMPTY = sql`'{}'`;

/**
 * A grade: the submission's sums are added to "all", and to "first" when it is its user's
 * earliest graded submission; a later-created submission graded before it was "first" until now,
 * and its sums (read from its stored results) are taken out of "first" in the same statement.
 */
export function itemSumsOnGrade(graded: GradedSubmission, answers: AnswerPoints[], total: number, won: SQL): SQL {
  const { quizId } = graded;
  const first = isFirst(graded);
  const displaced = displacedFirst(graded);
  const rows = JSON.stringify(answers.map((a) => [a.question_id, a.x, a.p, a.right ? 1 : 0]));
  const chosen = JSON.stringify(answers.flatMap((a) => (a.chosen ?? []).map((option) => [a.question_id, option])));
  const t = total;
  const micro = (value: SQL) => sql`CAST(round(${value} * ${MICRO_POINTS_PER_POINT}) AS INTEGER)`;
  // The displaced submission's answers, negated, in population "first" only.
  const storedX = micro(sql`json_extract(r.value, '$.points_earned')`);
  const taken = sql`
    SELECT json_extract(r.value, '$.question_id'), -1, -x, -(x * x), -p, -d.t, -(d.t * d.t), -(x * d.t), -c
    FROM (SELECT r.value, ${storedX} AS x, ${micro(sql`json_extract(r.value, '$.points_possible')`)} AS p,
            coalesce(json_extract(r.value, '$.correct'), 0) AS c
          FROM submissions f, json_each(f.results) r WHERE f.id = d.id) r`;
  const added = sql`
    SELECT a.value ->> 0, 1, a.value ->> 1, (a.value ->> 1) * (a.value ->> 1), a.value ->> 2, ${t}, ${t} * ${t},
      (a.value ->> 1) * ${t}, a.value ->> 3
    FROM json_each(${rows}) a`;
  const optionsTaken = sql`
    SELECT json_extract(r.value, '$.question_id'), o.value, -1, -d.t
    FROM submissions f, json_each(f.results) r, json_each(r.value, '$.chosen') o WHERE f.id = d.id`;
  const optionsAdded = sql`SELECT c.value ->> 0, c.value ->> 1, 1, ${t} FROM json_each(${chosen}) c`;
  return sql`
    INSERT INTO item_sums (quiz_id, attempts, n, sum_t, sum_tt, items, options)
    SELECT ${quizId}, m.attempts,
      coalesce(e.n, 0) + 1 - (d.id IS NOT NULL), coalesce(e.sum_t, 0) + ${t} - coalesce(d.t, 0),
      coalesce(e.sum_tt, 0) + ${t} * ${t} - coalesce(d.t * d.t, 0),
      coalesce(${mergedItems(sql`e.items`, sql`${added} UNION ALL ${taken}`)}, ${EMPTY}),
      coalesce(${mergedOptions(sql`e.options`, sql`${optionsAdded} UNION ALL ${optionsTaken}`)}, ${EMPTY})
    FROM ${populations(first)} m
      LEFT JOIN (SELECT id, ${micro(sql`points_earned`)} AS t FROM submissions WHERE id = ${displaced}) d ON m.attempts = 'first'
      LEFT JOIN item_sums e ON e.quiz_id = ${quizId} AND e.attempts = m.attempts
    WHERE ${won}
    ON CONFLICT (quiz_id, attempts) DO UPDATE SET
      n = excluded.n, sum_t = excluded.sum_t, sum_tt = excluded.sum_tt, items = excluded.items, options = excluded.options`;
}

/**
 * A regrade or a review of a graded submission: the presented questions and the options chosen
 * stay, the points move. Each item's sums and the totals get the difference between the new and
 * the old contribution, in "all" and, where the submission is its user's first, in "first"; each
 * option chosen keeps its count and moves its Σt.
 */
export function itemSumsOnRegrade(
  graded: GradedSubmission,
  before: { answers: AnswerPoints[]; total: number },
  after: { answers: AnswerPoints[]; total: number },
  claimed: SQL,
): SQL {
  const { quizId } = graded;
  const first = isFirst(graded);
  const old = new Map(before.answers.map((a) => [a.question_id, a]));
  const rows = JSON.stringify(
    after.answers.map((a) => {
      const was = old.get(a.question_id);
      return [a.question_id, was?.x ?? 0, a.x, was?.p ?? 0, a.p, Number(a.right) - Number(was?.right ?? false)];
    }),
  );
  const t0 = before.total;
  const t1 = after.total;
  const chosen = JSON.stringify(after.answers.flatMap((a) => (a.chosen ?? []).map((option) => [a.question_id, option])));
  const moved = sql`
    SELECT d.value ->> 0, 0, x1 - x0, x1 * x1 - x0 * x0, (d.value ->> 4) - (d.value ->> 3), ${t1} - ${t0},
      ${t1} * ${t1} - ${t0} * ${t0}, x1 * ${t1} - x0 * ${t0}, d.value ->> 5
    FROM (SELECT value, value ->> 1 AS x0, value ->> 2 AS x1 FROM json_each(${rows})) d`;
  const optionsMoved = sql`SELECT c.value ->> 0, c.value ->> 1, 0, ${t1 - t0} FROM json_each(${chosen}) c`;
  return sql`
    UPDATE item_sums SET
      sum_t = sum_t + ${t1 - t0}, sum_tt = sum_tt + (${t1} * ${t1} - ${t0} * ${t0}),
      items = ${mergedItems(sql`item_sums.items`, moved)},
      options = coalesce(${mergedOptions(sql`item_sums.options`, optionsMoved)}, ${EMPTY})
    WHERE quiz_id = ${quizId} AND attempts IN (SELECT attempts FROM ${populations(first)}) AND ${claimed}`;
}
