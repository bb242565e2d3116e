/**
 * What makes an answer acceptable: a response that fits its question (shape, bounds, option ids),
 * and a set of answers that names each question of the quiz at most once. No I/O.
 */

import type { FieldError } from "../lib/errors";
import { forbiddenControlCharacter, isWellFormedUnicode, TEXT_MESSAGES } from "../lib/text";
import type { GradableQuestion } from "./questions";

export interface SubmittedAnswer {
  question_id: string;
  response: unknown;
}

/** The longest short-text response, in UTF-16 code units (docs/security.md: rows stay bounded). */
export const MAX_SHORT_TEXT_RESPONSE_LENGTH = 1_000;
/** The longest essay, in UTF-16 code units. */
const MAX_ESSAY_LENGTH = 20_000;
/** The longest review feedback, in UTF-16 code units. */
export const MAX_REVIEW_FEEDBACK_LENGTH = 2_000;

/** Why a response does not fit its question (shape, bounds, option ids), or undefined when it does. */
export function responseProblem(question: GradableQuestion, response: unknown): string | undefined {
  switch (question.type) {
    case "single_choice":
      if (typeof response !== "string") return "must be an option id (a string)";
      return question.options.some((o) => o.id === response) ? undefined : "must be one of the question's option ids";
    case "short_text":
      return textProblem(response);
    case "essay": {
      const problem = textProblem(response, MAX_ESSAY_LENGTH);
      if (problem) return problem;
      const words = (response as string).split(/\s+/u).filter((w) => w !== "").length;
      return question.max_words != null && words > question.max_words
        ? `must be at most ${question.max_words} words (it has ${words})`
        : undefined;
    }
    case "fill_in_blanks": {
      if (!isPlainObject(response)) return "must be an object of blank ids to strings";
      const blanks = new Set(question.blanks.map((b) => b.id));
      for (const [blank, text] of Object.entries(response)) {
        if (!blanks.has(blank)) return `names "${blank.slice(0, 64)}", which is not one of the question's blanks`;
        const problem = textProblem(text);
        if (problem) return `for blank "${blank}" ${problem}`;
      }
      return undefined;
    }
    case "true_false":
      return typeof response === "boolean" ? undefined : "must be a boolean";
    case "numeric":
      return typeof response === "number" && Number.isFinite(response) ? undefined : "must be a finite number";
    case "ordering": {
      const ids = question.items.map((i) => i.id);
      if (!Array.isArray(response) || response.length !== ids.length) return `must list every item id once (${ids.length})`;
      const seen = new Set<unknown>(response);
      return seen.size === ids.length && ids.every((id) => seen.has(id))
        ? undefined
        : "must be an order of the question's item ids";
    }
    case "matching": {
      if (!isPlainObject(response)) return "must be an object of prompt ids to choice ids";
      const prompts = new Set(question.prompts.map((p) => p.id));
      const choices = new Set(question.choices.map((c) => c.id));
      for (const [prompt, choice] of Object.entries(response)) {
        if (!prompts.has(prompt)) return `names "${prompt.slice(0, 64)}", which is not one of the question's prompt ids`;
        if (typeof choice !== "string" || !choices.has(choice))
          return "must match each prompt to one of the question's choice ids";
      }
      return undefined;
    }
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

/** A short-text response (or a blank's): a bounded string of well-formed, printable text. */
function textProblem(response: unknown, maxLength = MAX_SHORT_TEXT_RESPONSE_LENGTH): string | undefined {
  if (typeof response !== "string") return "must be a string";
  if (response.length > maxLength) return `must be at most ${maxLength} characters`;
  if (!isWellFormedUnicode(response)) return TEXT_MESSAGES.lone_surrogate;
  // Tab, line feed and carriage return are allowed; other control characters are not.
  return forbiddenControlCharacter(response, true) === undefined ? undefined : TEXT_MESSAGES.control;
}

/**
 * Whether a response has its question type's shape, which is all grading needs: stored answers
 * passed responseProblem when they were written, and grading stays defined for any input.
 */
export function isResponseValidFor(question: GradableQuestion, response: unknown): boolean {
  switch (question.type) {
    case "single_choice":
    case "short_text":
    case "essay":
      return typeof response === "string";
    case "true_false":
      return typeof response === "boolean";
    case "numeric":
      return typeof response === "number" && Number.isFinite(response);
    case "multiple_choice":
    case "ordering":
      if (!Array.isArray(response)) return false;
      // for..of (unlike every) visits holes of sparse arrays as undefined.
      for (const item of response) if (typeof item !== "string") return false;
      return true;
    case "matching":
    case "fill_in_blanks":
      return isPlainObject(response) && Object.values(response).every((v) => typeof v === "string");
  }
}

/**
 * The most a question's answer and its graded result can add to a submission's row, in bytes of
 * UTF-8 JSON (3 bytes per UTF-16 code unit at most; ids ≤ 64 characters). A quiz whose questions
 * add up to more than ANSWER_ROW_BUDGET is refused (docs/security.md: every row stays under D1's 1 000 000 bytes).
 */
export function answerRowBytes(question: GradableQuestion): number {
  const ENTRY = 260; // {"question_id":…,"response":…} and its results entry, without the response
  const ID = 70; // a quoted id of at most 64 characters, with its separators
  const TEXT = 3 * MAX_SHORT_TEXT_RESPONSE_LENGTH + 2;
  switch (question.type) {
    case "single_choice":
      return ENTRY + 2 * ID;
    case "multiple_choice":
      return ENTRY + 2 * ID * question.options.length;
    case "true_false":
      return ENTRY + 5;
    case "numeric":
      return ENTRY + 25;
    case "short_text":
      return ENTRY + TEXT;
    case "ordering":
      return ENTRY + ID * question.items.length;
    case "matching":
      return ENTRY + 2 * ID * question.prompts.length;
    case "fill_in_blanks":
      return ENTRY + (ID + TEXT) * question.blanks.length;
    case "essay":
      // The essay, and its review's feedback in the results.
      return ENTRY + 3 * MAX_ESSAY_LENGTH + 2 + 3 * MAX_REVIEW_FEEDBACK_LENGTH + 2;
  }
}

/** What the answers and results of one submission may take of its row, in bytes (D1 allows 1 000 000 a row). */
export const ANSWER_ROW_BUDGET = 900_000;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

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
