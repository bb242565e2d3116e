/**
 * Regrading one graded submission under a policy (docs/item-analysis.md): pure, no I/O. The presented
 * questions and the responses stay; the listed questions are scored again against their current
 * version, and every other answer keeps what it was graded with.
 */

import { type StoredAnswerResult, scoreAnswer, totalOf } from "./grading";
import type { RegradePolicy } from "./jobs";
import { fromMicro, toMicro } from "./points";
import type { GradableQuestion } from "./question-types";
import type { FeedbackBand } from "./quiz-settings";

export interface CurrentQuestion {
  question: GradableQuestion;
  version: number;
}

export interface Regraded {
  results: StoredAnswerResult[];
  score: number;
  points_earned: number;
  points_possible: number;
  feedback: string;
  /** Any answer's points earned changed. */
  changed: boolean;
  /** Any answer's points earned or possible changed: the analytics move. */
  moved: boolean;
  /** Something stored changes: the points, or only the versions the answers record. */
  rewritten: boolean;
}

/**
 * `listed` null: every current question. `full_credit` gives the listed questions their full
 * points, answered or not; `higher_of` keeps, per answer, the larger of the old and new points.
 * Answers to questions deleted since keep their grade.
 */
export function regradeSubmission(
  stored: readonly StoredAnswerResult[],
  responses: ReadonlyMap<string, unknown>,
  current: ReadonlyMap<string, CurrentQuestion>,
  listed: ReadonlySet<string> | null,
  policy: RegradePolicy,
  bands: FeedbackBand[],
): Regraded {
  let earned = 0;
  let possible = 0;
  let changed = false;
  let moved = false;
  let rewritten = false;
  const results = stored.map((entry): StoredAnswerResult => {
    const now = current.get(entry.question_id);
    // Essays keep their review (or wait for it): a person scores them, not a key.
    if (!now || now.question.type === "essay" || (listed !== null && !listed.has(entry.question_id))) {
      earned += toMicro(entry.points_earned);
      possible += toMicro(entry.points_possible);
      return entry;
    }
    const response = responses.get(entry.question_id) ?? null;
    const fresh = scoreAnswer(now.question, response);
    let { correct, earned: x } = fresh;
    if (policy === "full_credit") {
      correct = true;
      x = fresh.possible;
    } else if (policy === "higher_of" && toMicro(entry.points_earned) > x) {
      correct = entry.correct;
      x = toMicro(entry.points_earned);
    }
    earned += x;
    possible += fresh.possible;
    if (x !== toMicro(entry.points_earned)) changed = true;
    if (fresh.possible !== toMicro(entry.points_possible)) moved = true;
    // The options chosen are the response's, counted when it was graded: they stay.
    const { chosen } = entry;
    const next: StoredAnswerResult = {
      question_id: entry.question_id,
      version: now.version,
      correct,
      points_earned: fromMicro(x),
      points_possible: fromMicro(fresh.possible),
      ...(chosen === undefined ? {} : { chosen }),
    };
    if (JSON.stringify(next) !== JSON.stringify(entry)) rewritten = true;
    return next;
  });
  const total = totalOf(earned, possible, bands);
  return { results, ...total, changed, moved: moved || changed, rewritten };
}

/** Whether a regrade changes the submission (docs/item-analysis.md: its score or any answer's points). */
export function regradeChanges(before: { score: number }, after: Regraded): boolean {
  return after.changed || after.score !== before.score;
}
