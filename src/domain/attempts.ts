import type { GradingPolicy, QuizSettings, RevealPolicy } from "./quiz-settings";
import type { PresentedQuestion } from "./submissions";

/**
 * The rules of attempts (CONTRACT §8), as pure functions of values: the availability window,
 * deadlines, attempt limits with accommodations, the draw and order of a submission's questions,
 * the kept score under each grading policy, and when results reveal answer keys.
 */

type Window = Pick<QuizSettings, "available_from" | "available_until">;

/** Whether a submission may be created at `now` (ISO): from available_from (inclusive) to available_until (exclusive). */
export function isAvailable(settings: Window, now: string): boolean {
  if (settings.available_from !== null && now < settings.available_from) return false;
  if (settings.available_until !== null && now >= settings.available_until) return false;
  return true;
}

/**
 * A submission's deadline: the earliest of created_at + time limit + extra time and the window's
 * end (extra time never extends the window); null when neither applies.
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

/** A small seeded generator (mulberry32): the same seed draws the same questions in the same order. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates with the given generator; returns a new array. */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export interface DrawableQuestion {
  id: string;
  pool: string | null;
  /** Option ids, for choice questions. */
  options?: string[];
}

/**
 * What a submission presents, fixed at its creation: every question without a pool (or whose pool
 * no entry names), plus `pick` questions drawn from each named pool; in the quiz's order, or
 * shuffled; with each choice question's options shuffled when the quiz says so.
 */
export function presentQuestions(
  questions: readonly DrawableQuestion[],
  settings: Pick<QuizSettings, "pools" | "shuffle_questions" | "shuffle_options">,
  seed: number,
): PresentedQuestion[] {
  const random = seededRandom(seed);
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
    ...(settings.shuffle_options && q.options ? { option_order: shuffled(q.options, random) } : {}),
  }));
}

/** What is kept per user and quiz so that every policy's kept score is one row away. */
export interface GradeSums {
  attempts: number;
  firstScore: number;
  latestScore: number;
  highestScore: number;
  scoreSum: number;
}

/** The score a user keeps under the policy: first and latest by attempt number; the average to 2 decimals. */
export function keptScore(sums: GradeSums, policy: GradingPolicy): number {
  switch (policy) {
    case "first":
      return sums.firstScore;
    case "latest":
      return sums.latestScore;
    case "average":
      return Math.round((sums.scoreSum / sums.attempts) * 100) / 100;
    default:
      return sums.highestScore;
  }
}

export interface RevealFacts {
  policy: RevealPolicy;
  now: string;
  /** The user's graded submissions at this quiz. */
  gradedAttempts: number;
  /** max_attempts + extra attempts; null is unlimited. */
  allowedAttempts: number | null;
  availableUntil: string | null;
  deadlineAt: string | null;
}

/** Whether results show answer keys under the quiz's reveal policy (quizzes:write sees them always). */
export function policyReveals(facts: RevealFacts): boolean {
  switch (facts.policy) {
    case "always":
      return true;
    case "never":
      return false;
    case "after_last_attempt":
      return facts.allowedAttempts !== null && facts.gradedAttempts >= facts.allowedAttempts;
    case "after_due":
      if (facts.availableUntil !== null) return facts.now >= facts.availableUntil;
      if (facts.deadlineAt !== null) return facts.now >= facts.deadlineAt;
      return true;
  }
}
