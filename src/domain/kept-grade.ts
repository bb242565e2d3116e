import type { GradingPolicy } from "./quiz-settings";

/**
 * The kept grade: which of a user's graded attempts at a quiz counts under the quiz's grading
 * policy (docs/api.md). One rule, here, in values; src/db/kept-grade.ts derives from the same
 * table the SQL that the results export (which attempt is `kept`) and the LTI ledger (which score
 * the gradebook gets) run, and the running totals keep the sums its score needs (grades rows,
 * src/grading/totals.ts), which the grades list reads with keptScore.
 *
 *   first    the earliest attempt
 *   latest   the latest attempt
 *   highest  the best score; of attempts tied at it, the earliest
 *   average  every graded attempt counts: the mean of their scores to 2 decimals (the latest is
 *            the one named)
 *
 * An attempt that needs review has no score yet: while one could become what counts — under
 * first and latest the one the order puts first, under highest and average any — the kept grade
 * waits for its review.
 */

/** One key of the order attempts are preferred in. */
interface OrderKey {
  by: "attempt" | "score";
  descending: boolean;
}

/** What is kept per user and quiz so that every policy's kept score is one row away. */
export interface GradeSums {
  attempts: number;
  firstScore: number;
  latestScore: number;
  highestScore: number;
  scoreSum: number;
}

export interface KeptRule {
  /** Attempts in the order the policy prefers them: the first graded one is kept. Attempt numbers are unique, so the order is total. */
  order: readonly OrderKey[];
  /** Every graded attempt counts in the kept score, not only the first in order. */
  everyAttemptCounts: boolean;
  /** Which attempt awaiting review holds the kept grade back: the first in order, or any. */
  waitsFor: "first_in_order" | "any";
  /** The kept score from the sums the grades row keeps. */
  score(sums: GradeSums): number;
}

const EARLIEST: OrderKey = { by: "attempt", descending: false };
const LATEST: OrderKey = { by: "attempt", descending: true };

export const KEPT_RULES: Record<GradingPolicy, KeptRule> = {
  first: { order: [EARLIEST], everyAttemptCounts: false, waitsFor: "first_in_order", score: (s) => s.firstScore },
  latest: { order: [LATEST], everyAttemptCounts: false, waitsFor: "first_in_order", score: (s) => s.latestScore },
  highest: {
    order: [{ by: "score", descending: true }, EARLIEST],
    everyAttemptCounts: false,
    waitsFor: "any",
    score: (s) => s.highestScore,
  },
  average: {
    order: [LATEST],
    everyAttemptCounts: true,
    waitsFor: "any",
    score: (s) => Math.round((s.scoreSum / s.attempts) * 100) / 100,
  },
};

export interface Attempt {
  attempt: number;
  score: number;
  status: "graded" | "needs_review";
}

/** Whether attempt `a` comes before attempt `b` in the policy's order. */
function precedes(a: Omit<Attempt, "status">, b: Omit<Attempt, "status">, policy: GradingPolicy): boolean {
  for (const key of KEPT_RULES[policy].order) {
    const [x, y] = key.descending ? [b[key.by], a[key.by]] : [a[key.by], b[key.by]];
    if (x !== y) return x < y;
  }
  return false;
}

/** The attempt the policy keeps (names, under average) of a user's attempts; undefined without a graded one. */
export function keptAttempt<T extends Attempt>(attempts: readonly T[], policy: GradingPolicy): T | undefined {
  let kept: T | undefined;
  for (const attempt of attempts)
    if (attempt.status === "graded" && (kept === undefined || precedes(attempt, kept, policy))) kept = attempt;
  return kept;
}

/** Whether an attempt awaiting review holds the user's kept grade back. */
export function keptGradeWaits(attempts: readonly Attempt[], policy: GradingPolicy): boolean {
  const waiting = attempts.filter((a) => a.status === "needs_review");
  if (KEPT_RULES[policy].waitsFor === "any") return waiting.length > 0;
  return waiting.some((w) => !attempts.some((a) => a !== w && precedes(a, w, policy)));
}

/** The score a user keeps under the policy, from the sums the grades row keeps. */
export const keptScore = (sums: GradeSums, policy: GradingPolicy): number => KEPT_RULES[policy].score(sums);
