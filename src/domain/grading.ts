/**
 * Pure grading engine: no I/O. Questions arrive already validated; responses are type-checked
 * here only defensively (isResponseValidFor). Points are summed exactly, in micro-points.
 */

import { isResponseValidFor, type SubmittedAnswer } from "./answers";
import { fromMicro, toMicro } from "./points";
import type { GradableQuestion, QuestionType } from "./questions";
import type { FeedbackBand } from "./quiz-settings";

export interface AnswerResult {
  question_id: string;
  type: QuestionType;
  response: unknown | null;
  correct: boolean;
  points_earned: number;
  points_possible: number;
  feedback: string | null;
  correct_answer: unknown;
  explanation: string | null;
  /** The options chosen (choice types only). */
  chosen?: string[];
  /** An answered essay, waiting for its review. */
  pending?: true;
}

/**
 * What a graded submission keeps per answer: a reference to the question version it was graded
 * against and the points, never copies of keys, feedback or explanations (those are in
 * question_versions, once per version), so the row's size is bounded by the answers alone.
 */
export interface StoredAnswerResult {
  question_id: string;
  version: number;
  correct: boolean;
  points_earned: number;
  points_possible: number;
  /** The options chosen, for choice questions (item analysis counts them). */
  chosen?: string[];
  /** An answered essay waiting for its review (points_earned 0 until then). */
  pending?: true;
  /** An essay's review: the points it gave (points_earned) and its feedback. */
  review?: { feedback: string | null };
}

export interface GradeResult {
  score: number;
  points_earned: number;
  points_possible: number;
  /** The matching band's message, else the points sentence: never empty (docs/api.md). */
  feedback: string;
  answers: AnswerResult[];
  /** An answered essay waits for its review: the submission is not graded yet. */
  needs_review: boolean;
}

/**
 * Round-half-up division of non-negative integers. BigInt because numerators
 * such as earned micro-points × 10 000 can exceed 2^53, and float division
 * near a .5 boundary could round the wrong way.
 */
function divRoundHalfUp(num: bigint, den: bigint): bigint {
  return (2n * num + den) / (2n * den);
}

const WHITESPACE_RUN = /\s+/gu;

export function normalizeText(s: string, caseSensitive: boolean): string {
  // NFKC first: it maps compatibility spaces (e.g. U+3000) and full-width
  // letters to their plain forms before whitespace folding and lower-casing.
  const folded = s.normalize("NFKC").trim().replace(WHITESPACE_RUN, " ");
  return caseSensitive ? folded : folded.toLowerCase();
}

/**
 * Tolerances are typed as decimals that binary floats cannot represent, and
 * the subtraction rounds too: 0.4 - 0.3 = 0.10000000000000003 > 0.1. Those
 * errors are a few ulps (~1e-16 relative to the operands), so a slack of 1e-9
 * of the operands' magnitude absorbs them while staying far below any
 * precision a quiz author could meaningfully ask for.
 */
function withinTolerance(response: number, value: number, tolerance: number): boolean {
  const slack = 1e-9 * Math.max(1, Math.abs(response), Math.abs(value));
  return Math.abs(response - value) <= tolerance + slack;
}

/** Full points for all parts right; under `partial`, the share of the parts right (rounded half up). */
function share(right: number, parts: number, scoring: "all_or_nothing" | "partial", possible: number) {
  const exact = right === parts;
  if (exact || scoring === "all_or_nothing" || parts === 0) return { correct: exact, earned: exact ? possible : 0 };
  return { correct: false, earned: Number(divRoundHalfUp(BigInt(possible) * BigInt(right), BigInt(parts))) };
}

/** Returns earned micro-points; `response` must already pass isResponseValidFor. */
function evaluate(question: GradableQuestion, response: unknown, possible: number): { correct: boolean; earned: number } {
  const allOrNothing = (ok: boolean) => ({ correct: ok, earned: ok ? possible : 0 });
  switch (question.type) {
    case "single_choice":
      return allOrNothing(response === question.correct_option_id);
    case "true_false":
      return allOrNothing(response === question.correct);
    case "numeric":
      return allOrNothing(withinTolerance(response as number, question.correct_value, question.tolerance));
    case "short_text": {
      const { case_sensitive: cs } = question;
      const given = normalizeText(response as string, cs);
      return allOrNothing(question.accepted_answers.some((a) => normalizeText(a, cs) === given));
    }
    case "ordering": {
      const key = question.correct_order;
      const given = response as string[];
      const right = key.filter((id, i) => given[i] === id).length;
      return share(right, key.length, question.scoring, possible);
    }
    case "matching": {
      const key = Object.entries(question.correct_matches);
      const given = response as Record<string, unknown>;
      const right = key.filter(([prompt, choice]) => Object.hasOwn(given, prompt) && given[prompt] === choice).length;
      return share(right, key.length, question.scoring, possible);
    }
    case "fill_in_blanks": {
      const given = response as Record<string, unknown>;
      const right = question.blanks.filter((blank) => {
        const text = Object.hasOwn(given, blank.id) ? given[blank.id] : undefined;
        if (typeof text !== "string") return false;
        const folded = normalizeText(text, blank.case_sensitive);
        return blank.accepted_answers.some((a) => normalizeText(a, blank.case_sensitive) === folded);
      }).length;
      return share(right, question.blanks.length, question.scoring, possible);
    }
    case "essay":
      // Scored by a review; until then it counts 0.
      return { correct: false, earned: 0 };
    case "multiple_choice": {
      const key = new Set(question.correct_option_ids);
      const chosen = new Set(response as string[]);
      let right = 0;
      for (const id of chosen) if (key.has(id)) right++;
      const wrong = chosen.size - right;
      const exact = wrong === 0 && right === key.size;
      // An empty key cannot give a share; only the exact (empty) answer scores.
      if (exact || question.scoring === "all_or_nothing" || key.size === 0) return allOrNothing(exact);
      const net = BigInt(Math.max(0, right - wrong));
      return { correct: false, earned: Number(divRoundHalfUp(BigInt(possible) * net, BigInt(key.size))) };
    }
  }
}

/** The answer key as results show it. */
export function correctAnswerOf(question: GradableQuestion): unknown {
  switch (question.type) {
    case "single_choice":
      return question.correct_option_id;
    case "multiple_choice":
      return [...new Set(question.correct_option_ids)].sort();
    case "true_false":
      return question.correct;
    case "short_text":
      return [...question.accepted_answers];
    case "numeric":
      return { value: question.correct_value, tolerance: question.tolerance };
    case "ordering":
      return [...question.correct_order];
    case "matching":
      return { ...question.correct_matches };
    case "fill_in_blanks":
      return Object.fromEntries(question.blanks.map((b) => [b.id, [...b.accepted_answers]]));
    case "essay":
      return null;
  }
}

/** The feedback when no band matches: the points and the score, e.g. "7 of 10 points (70%)." */
export function pointsSentence(pointsEarned: number, pointsPossible: number, score: number): string {
  const points = pointsPossible === 1 ? "point" : "points";
  return `${pointsEarned} of ${pointsPossible} ${points} (${score}%).`;
}

/** Highest min_score not above score; among equal min_scores the first listed wins. */
export function pickFeedback(score: number, bands: FeedbackBand[]): string | null {
  let best: FeedbackBand | null = null;
  for (const band of bands) {
    if (band.min_score <= score && (best === null || band.min_score > best.min_score)) best = band;
  }
  return best === null ? null : best.message;
}

/** One question's grade in micro-points; a missing or ill-typed response earns nothing. */
export function scoreAnswer(
  question: GradableQuestion,
  response: unknown,
): { correct: boolean; earned: number; possible: number } {
  const possible = toMicro(question.points);
  const answered = response !== null && response !== undefined && isResponseValidFor(question, response);
  return { ...(answered ? evaluate(question, response, possible) : { correct: false, earned: 0 }), possible };
}

/** The options a response chose, for the choice types (item analysis counts them); undefined for the others. */
function chosenOptions(question: GradableQuestion, response: unknown): string[] | undefined {
  if (question.type !== "single_choice" && question.type !== "multiple_choice") return undefined;
  if (response === null || response === undefined || !isResponseValidFor(question, response)) return [];
  return typeof response === "string" ? [response] : [...new Set(response as string[])];
}

/** The score (a percentage in hundredths, rounded half up on the exact ratio) and feedback of a total. */
export function totalOf(earnedMicro: number, possibleMicro: number, bands: FeedbackBand[]) {
  const score = possibleMicro === 0 ? 0 : Number(divRoundHalfUp(BigInt(earnedMicro) * 10_000n, BigInt(possibleMicro))) / 100;
  const earned = fromMicro(earnedMicro);
  const possible = fromMicro(possibleMicro);
  return {
    score,
    points_earned: earned,
    points_possible: possible,
    feedback: pickFeedback(score, bands) ?? pointsSentence(earned, possible, score),
  };
}

export function scoreSubmission(questions: GradableQuestion[], answers: SubmittedAnswer[], bands: FeedbackBand[]): GradeResult {
  // Later entries overwrite earlier ones (last answer wins); ids of deleted
  // questions stay in the map but are never looked up.
  const responses = new Map<string, unknown>();
  for (const a of answers) responses.set(a.question_id, a.response);

  let earnedTotal = 0;
  let possibleTotal = 0;
  const results = questions.map((question): AnswerResult => {
    const raw = responses.get(question.id);
    const response = raw === undefined ? null : raw;
    const { correct, earned, possible } = scoreAnswer(question, response);
    earnedTotal += earned;
    possibleTotal += possible;
    const feedback = correct ? question.feedback.correct : question.feedback.incorrect;
    return {
      question_id: question.id,
      type: question.type,
      response,
      correct,
      points_earned: fromMicro(earned),
      points_possible: fromMicro(possible),
      feedback: feedback ?? null,
      correct_answer: correctAnswerOf(question),
      explanation: question.explanation ?? null,
      chosen: chosenOptions(question, response),
      ...(question.type === "essay" && typeof response === "string" && response.trim() !== "" ? { pending: true as const } : {}),
    };
  });

  return {
    ...totalOf(earnedTotal, possibleTotal, bands),
    answers: results,
    needs_review: results.some((a) => a.pending),
  };
}
