/**
 * Pure grading engine: no I/O; it imports only lib's text rules. Questions arrive already
 * validated; responses are type-checked here only defensively.
 *
 * Points are summed in integer micro-points (1 point = 1 000 000). Points have
 * at most 6 decimals, so the conversion is exact and totals never drift
 * (0.1 + 0.2 is 0.3, not 0.30000000000000004). Numbers are produced only for
 * output, as micro / 1e6, which is the double nearest the exact decimal.
 */

import { TEXT_MESSAGES, forbiddenControlCharacter, isWellFormedUnicode } from "../lib/text";

export type QuestionType = "single_choice" | "multiple_choice" | "true_false" | "short_text" | "numeric";

export interface ChoiceOption {
  id: string;
  text: string;
}

export interface QuestionFeedback {
  correct?: string | null;
  incorrect?: string | null;
}

interface QuestionBase {
  id: string;
  points: number;
  feedback: QuestionFeedback;
  explanation?: string | null;
}

export interface SingleChoiceQuestion extends QuestionBase {
  type: "single_choice";
  options: ChoiceOption[];
  correct_option_id: string;
}

export interface MultipleChoiceQuestion extends QuestionBase {
  type: "multiple_choice";
  options: ChoiceOption[];
  correct_option_ids: string[];
  scoring: "all_or_nothing" | "partial";
}

export interface TrueFalseQuestion extends QuestionBase {
  type: "true_false";
  correct: boolean;
}

export interface ShortTextQuestion extends QuestionBase {
  type: "short_text";
  accepted_answers: string[];
  case_sensitive: boolean;
}

export interface NumericQuestion extends QuestionBase {
  type: "numeric";
  correct_value: number;
  tolerance: number;
}

export type GradableQuestion =
  | SingleChoiceQuestion
  | MultipleChoiceQuestion
  | TrueFalseQuestion
  | ShortTextQuestion
  | NumericQuestion;

export interface FeedbackBand {
  min_score: number;
  message: string;
}

export interface SubmittedAnswer {
  question_id: string;
  response: unknown;
}

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
}

export interface GradeResult {
  score: number;
  points_earned: number;
  points_possible: number;
  /** The matching band's message, else the points sentence: never empty (§2). */
  feedback: string;
  answers: AnswerResult[];
}

const MICRO = 1_000_000;
const toMicro = (points: number): number => Math.round(points * MICRO);
const fromMicro = (micro: number): number => micro / MICRO;

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

/** The longest short-text response, in UTF-16 code units (§6: rows stay bounded). */
export const MAX_SHORT_TEXT_RESPONSE_LENGTH = 1_000;

/** Why a response does not fit its question (shape, bounds, option ids), or undefined when it does. */
export function responseProblem(question: GradableQuestion, response: unknown): string | undefined {
  switch (question.type) {
    case "single_choice":
      if (typeof response !== "string") return "must be an option id (a string)";
      return question.options.some((o) => o.id === response) ? undefined : "must be one of the question's option ids";
    case "short_text":
      if (typeof response !== "string") return "must be a string";
      if (response.length > MAX_SHORT_TEXT_RESPONSE_LENGTH)
        return `must be at most ${MAX_SHORT_TEXT_RESPONSE_LENGTH} characters`;
      if (!isWellFormedUnicode(response)) return TEXT_MESSAGES.lone_surrogate;
      // Tab, line feed and carriage return are allowed; other control characters are not.
      return forbiddenControlCharacter(response, true) === undefined ? undefined : TEXT_MESSAGES.control;
    case "true_false":
      return typeof response === "boolean" ? undefined : "must be a boolean";
    case "numeric":
      return typeof response === "number" && Number.isFinite(response) ? undefined : "must be a finite number";
    case "multiple_choice": {
      if (!Array.isArray(response)) return "must be an array of option ids";
      const ids = new Set(question.options.map((o) => o.id));
      const seen = new Set<string>();
      // for..of (unlike every) visits holes of sparse arrays as undefined.
      for (const item of response) {
        if (typeof item !== "string" || !ids.has(item)) return "must hold only the question's option ids";
        if (seen.has(item)) return "must not repeat an option id";
        seen.add(item);
      }
      return undefined;
    }
  }
}

/**
 * Whether a response has its question type's shape, which is all grading needs: stored answers
 * passed responseProblem when they were written, and grading stays defined for any input.
 */
export function isResponseValidFor(question: GradableQuestion, response: unknown): boolean {
  switch (question.type) {
    case "single_choice":
    case "short_text":
      return typeof response === "string";
    case "true_false":
      return typeof response === "boolean";
    case "numeric":
      return typeof response === "number" && Number.isFinite(response);
    case "multiple_choice":
      if (!Array.isArray(response)) return false;
      // for..of (unlike every) visits holes of sparse arrays as undefined.
      for (const item of response) if (typeof item !== "string") return false;
      return true;
  }
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

export function gradeSubmission(
  questions: GradableQuestion[],
  answers: SubmittedAnswer[],
  bands: FeedbackBand[],
): GradeResult {
  // Later entries overwrite earlier ones (last answer wins); ids of deleted
  // questions stay in the map but are never looked up.
  const responses = new Map<string, unknown>();
  for (const a of answers) responses.set(a.question_id, a.response);

  let earnedTotal = 0;
  let possibleTotal = 0;
  const results = questions.map((question): AnswerResult => {
    const possible = toMicro(question.points);
    const raw = responses.get(question.id);
    const response = raw === undefined ? null : raw;
    const { correct, earned } =
      response !== null && isResponseValidFor(question, response)
        ? evaluate(question, response, possible)
        : { correct: false, earned: 0 };
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
    };
  });

  // Percentage in hundredths, rounded half up on the exact integer ratio.
  const score =
    possibleTotal === 0
      ? 0
      : Number(divRoundHalfUp(BigInt(earnedTotal) * 10_000n, BigInt(possibleTotal))) / 100;

  return {
    score,
    points_earned: fromMicro(earnedTotal),
    points_possible: fromMicro(possibleTotal),
    feedback: pickFeedback(score, bands) ?? pointsSentence(fromMicro(earnedTotal), fromMicro(possibleTotal), score),
    answers: results,
  };
}
