import type { z } from "@hono/zod-openapi";

/**
 * What one question type is (Moodle's question/type/<type>/question.php is the model): the fields
 * it keeps, which of them are its key, the input it is written as, what a response to it must be,
 * what a response can add to a submission's row, how a response scores, the key as results show
 * it, and what a submission puts in its own order. Each type is one module beside this file; the
 * registry (index.ts) gathers them, and answers, grading, reveal, events and the formats derive
 * from it. No I/O.
 */

/** How a multiple-choice, ordering, matching or fill-in-the-blanks question scores an answer that is not exactly the key. */
export const MULTIPLE_CHOICE_SCORINGS = ["all_or_nothing", "partial"] as const;
export type Scoring = (typeof MULTIPLE_CHOICE_SCORINGS)[number];

export interface ChoiceOption {
  id: string;
  text: string;
  /** A choice option's own feedback (docs/import-export.md): shown with its result once the key is revealed; never graded. */
  feedback?: string;
}

/** The messages shown with an answer's result, by whether it was correct. */
export interface QuestionFeedback {
  correct?: string;
  incorrect?: string;
}

/** What every question has, whatever its type, as the grading engine reads it. */
export interface QuestionBase {
  id: string;
  points: number;
  feedback: QuestionFeedback;
  explanation?: string | null;
}

/** A response's grade: whether it is right, and the micro-points it earns. */
export interface Score {
  correct: boolean;
  earned: number;
}

/**
 * A list of the definition that a submission may put in its own order. `alwaysShuffled`: the list
 * as written states the key (an ordering's items, a matching's choices), so every submission
 * orders it whatever shuffle_options says, its ids left out are random rather than a, b, …, and it
 * is listed sorted by id until the key is revealed (docs/security.md).
 */
interface Presentation {
  list: string;
  alwaysShuffled: boolean;
}

/**
 * One question type's whole behaviour. `Q` is the question in the grading engine's terms (the
 * common fields and the type's own); `Input` its zod input schema.
 */
export interface QuestionTypeModule<Q extends QuestionBase = QuestionBase, Input extends z.ZodType = z.ZodType> {
  /** The fields a question of the type keeps as its definition, in the order they are stored. */
  readonly fields: readonly string[];
  /**
   * Of those, the fields that give the answer away: hidden from credentials without quizzes:write,
   * and left out of events (docs/security.md). Whatever else tells the key (feedback, explanations,
   * option feedback, a key-ordered list's order) is hidden for every type alike (reveal.ts).
   */
  readonly keyFields: readonly string[];
  /** The list a submission orders for itself, if any. */
  readonly presentation?: Presentation;
  /** The question as a request writes it (POST /v1/quizzes, POST /v1/quizzes/{id}/questions), `type` its discriminator. */
  readonly input: Input;
  /** A question of the type as a request writes it: the API's example, and what tests make each type from. */
  readonly example: z.input<Input>;
  /** The type's fields in the API's representation of a question (`Question`), as quizzes:write reads them. */
  readonly shown: Readonly<Record<string, z.ZodType>>;
  /** The definition stored for a validated input: ids given to every list entry, the key in its usual form. */
  definition(input: z.output<Input>): Record<string, unknown>;
  /** Why a response does not fit the question (shape, bounds, ids), or undefined when it does. */
  responseProblem(question: Q, response: unknown): string | undefined;
  /** Whether a response has the type's shape: all grading needs of a stored answer (it passed responseProblem when written). */
  isResponse(response: unknown): boolean;
  /** The most an answer and its graded result can add to a submission's row, in bytes of UTF-8 JSON. */
  rowBytes(question: Q): number;
  /** The grade of a response that passed isResponse, out of `possible` micro-points. */
  score(question: Q, response: unknown, possible: number): Score;
  /** The key as results show it. */
  correctAnswer(question: Q): unknown;
  /** For the choice types: the options a response chooses among (results show their feedback) and those it chose (item analysis counts them). */
  readonly choice?: {
    options(question: Q): readonly ChoiceOption[];
    chosen(response: unknown): string[];
  };
  /** Whether an answer waits for a person's review before its submission is graded (an essay). */
  awaitsReview?(response: unknown): boolean;
}
