/**
 * What makes an answer acceptable: a response that fits its question (its type's module says
 * what fits), and a set of answers that names each question of the quiz at most once. No I/O.
 */

import type { FieldError } from "../lib/errors";
import { type GradableQuestion, moduleOf } from "./question-types";

export { MAX_REVIEW_FEEDBACK_LENGTH, MAX_SHORT_TEXT_RESPONSE_LENGTH } from "./question-types/rules";

export interface SubmittedAnswer {
  question_id: string;
  response: unknown;
}

/** The largest seq a one-answer save may carry: JSON numbers are exact integers up to 2^53 - 1. */
export const MAX_ANSWER_SEQ = Number.MAX_SAFE_INTEGER;

/**
 * An answer as stored: the response (null once a one-answer save cleared it) with the seq of the
 * write that stored it and when. The stored answer of a question is the one with the highest seq;
 * answers written before seqs existed have neither field.
 */
export interface StoredAnswer extends SubmittedAnswer {
  seq?: number;
  saved_at?: string;
}

/**
 * Answers written whole (a submission's creation, the whole-answers PUT), each stamped with the
 * write's time: its seq the time in milliseconds, so a one-answer save with a millisecond clock
 * made after the write lands and one made before it is stale.
 */
export const stampedAnswers = (answers: readonly SubmittedAnswer[], savedAt: string): StoredAnswer[] =>
  answers.map(({ question_id, response }) => ({ question_id, response, seq: Date.parse(savedAt), saved_at: savedAt }));

/** Why a response does not fit its question (shape, bounds, option ids), or undefined when it does. */
export const responseProblem = (question: GradableQuestion, response: unknown): string | undefined =>
  moduleOf(question).responseProblem(question, response);

/**
 * Whether a response has its question type's shape, which is all grading needs: stored answers
 * passed responseProblem when they were written, and grading stays defined for any input.
 */
export const isResponseValidFor = (question: GradableQuestion, response: unknown): boolean =>
  moduleOf(question).isResponse(response);

/**
 * The most a question's answer and its graded result can add to a submission's row, in bytes of
 * UTF-8 JSON (3 bytes per UTF-16 code unit at most; ids ≤ 64 characters). A quiz whose questions
 * add up to more than ANSWER_ROW_BUDGET is refused (docs/security.md: every row stays under D1's 1 000 000 bytes).
 */
export const answerRowBytes = (question: GradableQuestion): number => moduleOf(question).rowBytes(question);

/** What the answers and results of one submission may take of its row, in bytes (D1 allows 1 000 000 a row). */
export const ANSWER_ROW_BUDGET = 900_000;

/**
 * What is wrong with a submission's answers, as field errors (none when they are acceptable):
 * each answer must name a question of the quiz, once, with a response that fits the question,
 * so what is stored is bounded by the quiz's questions (docs/security.md).
 */
export function answerProblems(answers: readonly SubmittedAnswer[], questions: readonly GradableQuestion[]): FieldError[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  answers.forEach(({ question_id, response }, i) => {
    const question = byId.get(question_id);
    if (!question) errors.push({ path: `answers[${i}].question_id`, message: "Not a question of this quiz." });
    else if (seen.has(question_id))
      errors.push({ path: `answers[${i}].question_id`, message: "The question is answered twice." });
    else {
      const problem = responseProblem(question, response);
      if (problem) errors.push({ path: `answers[${i}].response`, message: `A ${question.type} response ${problem}.` });
    }
    seen.add(question_id);
  });
  return errors;
}
