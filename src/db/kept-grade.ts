import { type SQL, sql } from "drizzle-orm";
import { KEPT_RULES } from "../domain/kept-grade";
import { DEFAULT_SETTINGS, GRADING_POLICIES, type GradingPolicy } from "../domain/quiz-settings";

/**
 * The kept grade's rule (src/domain/kept-grade.ts) in SQL, derived from its table: the order a
 * policy prefers attempts in, as a comparison of two submissions rows, and from it which attempt
 * is kept and whether a review holds the kept grade back. A policy is a value (the results
 * export reads the quiz first) or an SQL expression (the LTI ledger reads it in its batch, as it
 * stands then).
 */

/** The quiz's grading policy as stored when the statement runs. */
export const storedPolicy = (quizId: string): SQL =>
  sql`(SELECT coalesce(json_extract(settings, '$.grading_policy'), ${DEFAULT_SETTINGS.grading_policy}) FROM quizzes WHERE id = ${quizId})`;

/** Whether the row aliased `a` comes before the row aliased `b` in the order of a policy given as a value. */
function precedesUnder(policy: GradingPolicy, a: string, b: string): SQL {
  let comparison = sql`0`;
  for (const key of [...KEPT_RULES[policy].order].reverse()) {
    const [x, y] = [sql.raw(`${a}.${key.by}`), sql.raw(`${b}.${key.by}`)];
    const before = key.descending ? sql`${x} > ${y}` : sql`${x} < ${y}`;
    comparison = sql`(${before} OR (${x} = ${y} AND ${comparison}))`;
  }
  return comparison;
}

/**
 * A per-policy expression: `pick` of a policy given as a value, or a CASE over every policy for
 * one given in SQL (the policies are the enum's own names, written as literals).
 */
function byPolicy(policy: GradingPolicy | SQL, pick: (policy: GradingPolicy) => SQL): SQL {
  if (typeof policy === "string") return pick(policy);
  return sql`(CASE ${policy} ${sql.join(
    GRADING_POLICIES.map((p) => sql`WHEN ${sql.raw(`'${p}'`)} THEN ${pick(p)}`),
    sql` `,
  )} END)`;
}

/** Whether submissions row `a` comes before row `b` (aliases) in the policy's order. */
const precedes = (policy: GradingPolicy | SQL, a: string, b: string): SQL => byPolicy(policy, (p) => precedesUnder(p, a, b));

/** Whether every graded attempt counts in the kept score (KeptRule.everyAttemptCounts). */
export const everyAttemptCounts = (policy: GradingPolicy | SQL): SQL =>
  byPolicy(policy, (p) => (KEPT_RULES[p].everyAttemptCounts ? sql`1` : sql`0`));

/**
 * The kept row of `attempts` (a select of one user's submissions at one quiz, with status,
 * attempt and score): the graded one that no other graded one precedes. Under average it is the
 * one named; every graded attempt counts in its score.
 */
export const keptOf = (attempts: SQL, policy: GradingPolicy | SQL): SQL => sql`
  SELECT * FROM (${attempts}) AS kept WHERE kept.status = 'graded' AND NOT EXISTS (
    SELECT 1 FROM (${attempts}) AS ahead WHERE ahead.status = 'graded' AND ${precedes(policy, "ahead", "kept")}) LIMIT 1`;

/** Whether an attempt of `attempts` awaiting review holds the kept grade back (KeptRule.waitsFor). */
export const keptGradeWaits = (attempts: SQL, policy: GradingPolicy | SQL): SQL =>
  byPolicy(policy, (p) =>
    KEPT_RULES[p].waitsFor === "any"
      ? sql`EXISTS (SELECT 1 FROM (${attempts}) AS waiting WHERE waiting.status = 'needs_review')`
      : sql`EXISTS (SELECT 1 FROM (${attempts}) AS waiting WHERE waiting.status = 'needs_review' AND NOT EXISTS (
          SELECT 1 FROM (${attempts}) AS ahead WHERE ahead.id <> waiting.id AND ${precedesUnder(p, "ahead", "waiting")}))`,
  );

/**
 * Whether the `submissions` row of the enclosing query counts in its user's kept grade: graded,
 * and first in the policy's order among the user's graded attempts at the quiz (under average,
 * every graded attempt). An index look-up per row (quiz, user, attempt).
 */
export function counts(policy: GradingPolicy): SQL {
  const graded = sql`submissions.status = 'graded'`;
  if (KEPT_RULES[policy].everyAttemptCounts) return graded;
  return sql`${graded} AND NOT EXISTS (
    SELECT 1 FROM submissions AS ahead WHERE ahead.quiz_id = submissions.quiz_id AND ahead.user_id = submissions.user_id
      AND ahead.status = 'graded' AND ${precedesUnder(policy, "ahead", "submissions")})`;
}
