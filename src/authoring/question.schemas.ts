import { z } from "@hono/zod-openapi";
import { CONTENT_FORMATS } from "../domain/content/question-content";
import { QUESTION_INPUTS, QUESTION_TYPE_MODULES, QUESTION_TYPES, SHOWN_FIELDS } from "../domain/question-types";
import { common } from "../domain/question-types/input";
import { idSchema } from "../lib/ids";

/**
 * A question's shapes in requests and answers, assembled from the question types' modules
 * (src/domain/question-types/): each type's input, its fields in the representation, and the
 * fields a patch may name.
 */

export { QuestionInput } from "../domain/question-types";

export const MAX_QUESTIONS_PER_QUIZ = 200;

const position = {
  position: z
    .number()
    .int()
    .min(1)
    .max(MAX_QUESTIONS_PER_QUIZ)
    .optional()
    .openapi({ description: "1-based position; default: after the last question." }),
};

type Input = (typeof QUESTION_INPUTS)[number];
type WithPosition<I> = I extends z.ZodObject<infer Shape, infer Config> ? z.ZodObject<Shape & typeof position, Config> : never;
/** A type's input that may name its position (its checks kept: safeExtend). */
const withPosition = (input: Input) => (input as z.ZodObject).safeExtend(position) as WithPosition<Input>;

/**
 * A question added to an existing quiz may name its position; the others move down. The example is
 * a formatted one (content_format "html", docs/content.md): chemistry with sub and sup.
 */
export const QuestionCreate = z
  .discriminatedUnion("type", QUESTION_INPUTS.map(withPosition) as [WithPosition<Input>, ...WithPosition<Input>[]])
  .openapi("QuestionCreate", {
    example: {
      type: "multiple_choice",
      content_format: "html",
      title: "Strong acids",
      tags: ["chemistry"],
      prompt: "<p>Which of these are <strong>strong</strong> acids in water?</p>",
      points: 2,
      options: [
        { id: "a", text: "H<sub>2</sub>SO<sub>4</sub>" },
        {
          id: "b",
          text: "CH<sub>3</sub>COOH",
          feedback: "<p>Ethanoic acid is weak: few of its molecules give up H<sup>+</sup>.</p>",
        },
        { id: "c", text: "HNO<sub>3</sub>" },
      ],
      correct_option_ids: ["a", "c"],
      scoring: "partial",
      position: 1,
    },
  });
export type QuestionCreate = z.infer<typeof QuestionCreate>;

type KeysOf<T> = T extends unknown ? keyof T : never;
type TypeField = Exclude<KeysOf<Input["shape"]>, keyof typeof common | "type">;

/** Every type's own input fields (options, correct_option_id, …, max_words), in the order of the types. */
const PATCHABLE = Object.fromEntries(
  Object.values(QUESTION_TYPE_MODULES).flatMap((m) =>
    Object.keys(m.input.shape)
      .filter((field) => field !== "type" && !(field in common))
      .map((field) => [field, z.unknown().optional()]),
  ),
) as Record<TypeField, z.ZodOptional<z.ZodUnknown>>;

/**
 * PATCH takes any subset of the fields of any type; the merged question is then validated as a
 * whole, so a patch can never leave a question that cannot be graded.
 */
export const QuestionPatch = z
  .strictObject({
    type: z.enum(QUESTION_TYPES).optional(),
    title: z.unknown().optional(),
    tags: z.unknown().optional(),
    content_format: z.unknown().optional(),
    prompt: z.unknown().optional(),
    points: z.unknown().optional(),
    feedback: z.unknown().optional(),
    explanation: z.unknown().optional(),
    pool: z.unknown().optional(),
    ...position,
    ...PATCHABLE,
  })
  .openapi("QuestionPatch", {
    example: { prompt: "What is the capital city of France?", points: 2, tags: ["geography", "capitals"] },
    description:
      "Any fields of a question; the result is validated as a whole question of its (new) type. A matching's pairs (and distractors) replace its prompts, choices and correct_matches; an ordering's items sent with ids left out, without correct_order, are the order as listed.",
  });

/** The first question of the quiz the examples create (QuizCreate's example), as quizzes:write reads it. */
export const QUESTION_EXAMPLE = {
  id: "qst_01kamz3f7c9n0p8s6e5vwx2y4r",
  quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
  type: "single_choice" as const,
  content_format: "text" as const,
  title: "Capital of France",
  tags: ["geography"],
  prompt: "What is the capital of France?",
  points: 1,
  position: 1,
  feedback: {},
  explanation: "Paris has been the capital since 987.",
  pool: null,
  options: [
    { id: "a", text: "Paris" },
    { id: "b", text: "Lyon", feedback: "Lyon is France's third city." },
  ],
  correct_option_id: "a",
  version: 1,
  created_at: "2026-11-21T10:00:00.000Z",
  updated_at: "2026-11-21T10:00:00.000Z",
};

export const Question = z
  .object({
    id: idSchema("question"),
    quiz_id: idSchema("quiz"),
    type: z.enum(QUESTION_TYPES),
    content_format: z.enum(CONTENT_FORMATS).openapi({
      description: 'How its texts are read: `"text"` plain, `"html"` a sanitized HTML fragment (docs/content.md).',
    }),
    title: z.string().nullable().openapi({ description: "The question's name for its authors; null when it has none." }),
    tags: z.array(z.string()).openapi({ description: "Its tags, in the order given; `[]` when none." }),
    prompt: z.string(),
    points: z.number(),
    position: z.number().int().openapi({ description: "1-based order within the quiz." }),
    feedback: z
      .object({ correct: z.string().optional(), incorrect: z.string().optional() })
      .openapi({ description: "Shown with an answer's result; part of the key: `{}` to a credential without quizzes:write." }),
    explanation: z.string().nullable().openapi({ description: "Part of the key: null to a credential without quizzes:write." }),
    pool: z.string().nullable().openapi({ description: "The question's pool; null: presented in every submission." }),
    ...SHOWN_FIELDS,
    version: z.number().int().min(1).openapi({
      description:
        "1 at creation, +1 for every change to what grading reads (key, options, scoring, points); results name the version each answer was graded against.",
    }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi("Question", {
    example: QUESTION_EXAMPLE,
    description:
      "As a credential with quizzes:write sees it. To any other credential the key is hidden (docs/security.md): no key fields (correct_option_id(s), correct, accepted_answers, correct_value, tolerance, correct_order, correct_matches, blanks, an essay's rubric), `feedback` is `{}`, `explanation` null, options carry no feedback, and an ordering's items and a matching's choices are listed sorted by id, an order that does not depend on the key.",
  });
export type Question = z.infer<typeof Question>;
