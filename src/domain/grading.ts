/**
 * Pure grading engine: no I/O. Questions arrive already validated; responses are type-checked
 * here only defensively (isResponseValidFor). Points are summed exactly, in micro-points; how a
 * response of each type scores is its module's (src/domain/question-types/).
 */

import { isResponseValidFor, type SubmittedAnswer } from "./answers";
import { divRoundHalfUp, fromMicro, toMicro } from "./points";
import { type GradableQuestion, moduleOf, type QuestionType } from "./question-types";
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

/** The answer key as results show it. */
export const correctAnswerOf = (question: GradableQuestion): unknown => moduleOf(question).correctAnswer(question);

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
  return {
    ...(answered ? moduleOf(question).score(question, response, possible) : { correct: false, earned: 0 }),
    possible,
  };
}

/** The options a response chose, for the choice types (item analysis counts them); undefined for the others. */
function chosenOptions(question: GradableQuestion, response: unknown): string[] | undefined {
  const { choice } = moduleOf(question);
  if (!choice) return undefined;
  if (response === null || response === undefined || !isResponseValidFor(question, response)) return [];
  return choice.chosen(response);
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
      ...(moduleOf(question).awaitsReview?.(response) ? { pending: true as const } : {}),
    };
  });

  return {
    ...totalOf(earnedTotal, possibleTotal, bands),
    answers: results,
    needs_review: results.some((a) => a.pending),
  };
}
