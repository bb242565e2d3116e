import { z } from "@hono/zod-openapi";
import { checkTextFormat } from "../content/question-content";
import { essay } from "./essay";
import { fillInBlanks } from "./fill-in-blanks";
import { matching } from "./matching";
import { multipleChoice } from "./multiple-choice";
import { numeric } from "./numeric";
import { ordering } from "./ordering";
import { shortText } from "./short-text";
import { singleChoice } from "./single-choice";
import { trueFalse } from "./true-false";
import type { QuestionTypeModule } from "./type";

/**
 * The question types, one module each, in the order the API lists them. Everything that differs
 * by type is read from here: answers (answers.ts), grading (grading.ts), the draw's order
 * (attempts.ts), who sees the key (reveal.ts), what events leave out (events.ts), a question's
 * input and representation (src/authoring), and each format's table of types (src/interchange),
 * which the compiler makes name every type. Adding a type is adding its module and its line here.
 */
export const QUESTION_TYPE_MODULES = {
  single_choice: singleChoice,
  multiple_choice: multipleChoice,
  true_false: trueFalse,
  short_text: shortText,
  numeric,
  ordering,
  matching,
  fill_in_blanks: fillInBlanks,
  essay,
};

type Modules = typeof QUESTION_TYPE_MODULES;
export type QuestionType = keyof Modules;

/** The question a module grades. */
type QuestionOf<M> = M extends QuestionTypeModule<infer Q> ? Q : never;
/** A question in the grading engine's terms: the common fields and its type's. */
export type GradableQuestion = QuestionOf<Modules[QuestionType]>;
/** The question of one type. */
type QuestionOfType<T extends QuestionType> = Extract<GradableQuestion, { type: T }>;

// Each module under the name of its own type.
QUESTION_TYPE_MODULES satisfies { [T in QuestionType]: QuestionTypeModule<QuestionOfType<T>> };

export const QUESTION_TYPES = Object.keys(QUESTION_TYPE_MODULES) as [QuestionType, ...QuestionType[]];

/** A question's module, for the question's own type. */
export const moduleOf = (question: { type: QuestionType }): QuestionTypeModule<GradableQuestion> =>
  QUESTION_TYPE_MODULES[question.type] as QuestionTypeModule<never> as QuestionTypeModule<GradableQuestion>;

/**
 * A table of one function per question type (a writer's, a reader's): the compiler asks for every
 * type, and each function gets the question narrowed to its type.
 */
export type PerType<Q extends { type: QuestionType }, R, A extends unknown[] = []> = {
  [T in QuestionType]: (question: Extract<Q, { type: T }>, ...args: A) => R;
};

/** The entry of `table` for the question's type, called with it. */
export const byType = <Q extends { type: QuestionType }, R, A extends unknown[]>(
  table: PerType<Q, R, A>,
  question: Q,
  ...args: A
): R => (table[question.type] as (question: Q, ...args: A) => R)(question, ...args);

const modules = Object.values(QUESTION_TYPE_MODULES) as QuestionTypeModule[];
const union = (lists: (readonly string[])[]) => [...new Set(lists.flat())];

/** The fields each type keeps as its definition (TYPE_FIELDS[type]). */
export const TYPE_FIELDS: Readonly<Record<QuestionType, readonly string[]>> = Object.fromEntries(
  QUESTION_TYPES.map((type) => [type, QUESTION_TYPE_MODULES[type].fields]),
) as Record<QuestionType, string[]>;

/**
 * Every type's key fields: hidden from credentials without quizzes:write (reveal.ts) and left out
 * of events (events.ts) alike, so a key field is hidden everywhere or nowhere.
 */
export const ANSWER_KEY_FIELDS: readonly string[] = union(modules.map((m) => m.keyFields));

/**
 * Lists whose order as written states the key (an ordering's items, a matching's choices): ids
 * left out are random, not a, b, … by position; they are listed sorted by id until the key is
 * revealed; every submission orders them.
 */
export const KEY_ORDERED_LISTS: readonly string[] = union(
  modules.flatMap((m) => (m.presentation?.alwaysShuffled ? [[m.presentation.list]] : [])),
);

type Inputs = Modules[QuestionType]["input"];
/** Each type's input schema, with the text format's limits on its formatted texts (domain/content), in the order of the types. */
export const QUESTION_INPUTS = QUESTION_TYPES.map((type) =>
  (QUESTION_TYPE_MODULES[type].input as z.ZodObject).superRefine((q, ctx) => checkTextFormat(q, ctx)),
) as unknown as [Inputs, ...Inputs[]];

/** A question as a request writes it: one of the types' inputs, told apart by `type`. */
export const QuestionInput = z.discriminatedUnion("type", QUESTION_INPUTS).openapi("QuestionInput");
export type QuestionInput = z.infer<typeof QuestionInput>;

/**
 * Every type's fields in the API's representation of a question, in the order of the types (a
 * field several types share, such as options or scoring, where it first appears).
 */
export const SHOWN_FIELDS = Object.assign({}, ...modules.map((m) => m.shown)) as UnionToIntersection<
  Modules[QuestionType]["shown"]
>;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

export type { MultipleChoiceQuestion } from "./multiple-choice";
export type { QuestionFeedback } from "./type";
