import { moduleOf, type QuestionType } from "./question-types";
import type { QuizSettings, RevealPolicy } from "./quiz-settings";
import type { PresentedQuestion } from "./submissions";

/**
 * The rules of attempts (docs/api.md), as pure functions of values: the availability window,
 * deadlines, attempt limits with accommodations, the draw and order of a submission's questions,
 * and when results reveal answer keys (the kept grade's rule is kept-grade.ts).
 */

type Window = Pick<QuizSettings, "available_from" | "available_until">;

/** Whether a submission may be created at `now` (ISO): from available_from (inclusive) to available_until (exclusive). */
export function isAvailable(settings: Window, now: string): boolean {
  if (settings.available_from !== null && now < settings.available_from) return false;
  if (settings.available_until !== null && now >= settings.available_until) return false;
  return true;
}

/**
 * A submission's deadline (docs/api.md): the earliest of created_at + time limit + extra time and
 * the window's end (extra time never extends the window); null when neither applies. Written to
 * D1 by the SQL of src/routes/quizzes/quiz-deadlines.ts, which reads the settings of the moment
 * its batch runs; this is the rule it follows, in values.
 */
export function deadlineFor(
  settings: Pick<QuizSettings, "time_limit_seconds" | "available_until">,
  createdAtMs: number,
  extraTimeSeconds: number,
): string | null {
  const limits: number[] = [];
  if (settings.time_limit_seconds !== null) limits.push(createdAtMs + (settings.time_limit_seconds + extraTimeSeconds) * 1000);
  if (settings.available_until !== null) limits.push(Date.parse(settings.available_until));
  return limits.length === 0 ? null : new Date(Math.min(...limits)).toISOString();
}

/** Attempts a user may make: max_attempts plus their extra attempts; null is unlimited. */
export const allowedAttempts = (maxAttempts: number | null, extraAttempts: number): number | null =>
  maxAttempts === null ? null : maxAttempts + extraAttempts;

/** A random integer in [0, n): each value equally likely. */
export type RandomBelow = (n: number) => number;

const UINT32_RANGE = 2 ** 32;

/**
 * A uniform random integer in [0, n) from the platform's CSPRNG: 32-bit values from the largest
 * multiple of n on are drawn again, so no value is favoured (a plain modulo would be).
 */
export const randomBelow: RandomBelow = (n) => {
  const limit = UINT32_RANGE - (UINT32_RANGE % n);
  const value = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(value);
    if ((value[0] as number) < limit) return (value[0] as number) % n;
  }
};

/** Fisher–Yates: every order equally likely when `random` is uniform; returns a new array. */
function shuffled<T>(items: readonly T[], random: RandomBelow): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export interface DrawableQuestion {
  id: string;
  pool: string | null;
  /** The ids a submission puts in its own order: a choice question's options, an ordering's items, a matching's choices. */
  options?: string[];
  /** Ordered by every submission, whatever shuffle_options says (ordering and matching: docs/security.md). */
  alwaysShuffled?: boolean;
}

/** A stored question as the draw sees it: its pool and what a submission may order (its type's presentation). */
export function drawableQuestion(question: {
  id: string;
  pool: string | null;
  type: QuestionType;
  definition: Record<string, unknown>;
}): DrawableQuestion {
  const drawable = { id: question.id, pool: question.pool };
  const { presentation } = moduleOf(question);
  if (!presentation) return drawable;
  const list = (question.definition[presentation.list] ?? []) as { id: string }[];
  return {
    ...drawable,
    options: list.map((entry) => entry.id),
    ...(presentation.alwaysShuffled ? { alwaysShuffled: true } : {}),
  };
}

/**
 * What a submission presents, fixed at its creation: every question without a pool (or whose pool
 * no entry names), plus `pick` questions drawn from each named pool; in the quiz's order, or
 * shuffled; each choice question's options in their own order when the quiz shuffles options,
 * and every ordering's items and matching's choices in their own order always, so that the order
 * a submission sees tells nothing of the key (docs/security.md). Every draw and order is uniform.
 */
export function presentQuestions(
  questions: readonly DrawableQuestion[],
  settings: Pick<QuizSettings, "pools" | "shuffle_questions" | "shuffle_options">,
  random: RandomBelow = randomBelow,
): PresentedQuestion[] {
  const picks = new Map(settings.pools.map((p) => [p.pool, p.pick]));
  const drawn = new Set<string>();
  for (const [pool, pick] of picks) {
    const members = questions.filter((q) => q.pool === pool).map((q) => q.id);
    for (const id of shuffled(members, random).slice(0, pick)) drawn.add(id);
  }
  const chosen = questions.filter((q) => q.pool === null || !picks.has(q.pool) || drawn.has(q.id));
  const ordered = settings.shuffle_questions ? shuffled(chosen, random) : chosen;
  return ordered.map((q, i) => ({
    question_id: q.id,
    position: i + 1,
    ...(q.options && (q.alwaysShuffled || settings.shuffle_options) ? { option_order: shuffled(q.options, random) } : {}),
  }));
}

export interface RevealFacts {
  policy: RevealPolicy;
  now: string;
  /** The user's graded submissions at this quiz. */
  gradedAttempts: number;
  /** The user's submissions at this quiz, whatever their status: the attempts used. */
  attemptsUsed: number;
  /** The user's open submissions at this quiz. */
  openSubmissions: number;
  /** max_attempts + extra attempts; null is unlimited. */
  allowedAttempts: number | null;
  availableUntil: string | null;
  deadlineAt: string | null;
}

/**
 * Whether the user can still answer the quiz: they hold an open submission, or they may start
 * another (the window is not closed and attempts are left).
 */
export function canStillAnswer(
  facts: Pick<RevealFacts, "now" | "attemptsUsed" | "openSubmissions" | "allowedAttempts" | "availableUntil">,
): boolean {
  if (facts.openSubmissions > 0) return true;
  const windowClosed = facts.availableUntil !== null && facts.now >= facts.availableUntil;
  const attemptsLeft = facts.allowedAttempts === null || facts.attemptsUsed < facts.allowedAttempts;
  return !windowClosed && attemptsLeft;
}

/**
 * Whether results show answer keys under the quiz's reveal policy (quizzes:write sees them
 * always). "after_last_attempt" and "after_due" never reveal while the user can still answer
 * (docs/security.md): with unlimited attempts and no window's end, they never reveal.
 */
export function policyReveals(facts: RevealFacts): boolean {
  switch (facts.policy) {
    case "always":
      return true;
    case "never":
      return false;
    case "after_last_attempt":
      return facts.allowedAttempts !== null && facts.gradedAttempts >= facts.allowedAttempts && !canStillAnswer(facts);
    case "after_due":
      if (canStillAnswer(facts)) return false;
      if (facts.availableUntil !== null) return facts.now >= facts.availableUntil;
      if (facts.deadlineAt !== null) return facts.now >= facts.deadlineAt;
      return true;
  }
}
