import { z } from "@hono/zod-openapi";
import { MAX_QUESTIONS_PER_QUIZ, QuestionInput } from "../../authoring/question.schemas";
import { DEFAULT_SETTINGS, QuizSettings, SETTINGS_FIELDS } from "../../domain/quiz-settings";
import { idSchema } from "../../lib/ids";
import { multiLineText, singleLineText } from "../../lib/text";

const title = singleLineText(200).openapi({ example: "Capitals of Europe" });
const description = multiLineText(10_000).openapi({ example: "European capitals, from Lisbon to Helsinki." });

const QuizSettingsInput = z
  .strictObject({
    max_attempts: SETTINGS_FIELDS.max_attempts.default(DEFAULT_SETTINGS.max_attempts),
    feedback_bands: SETTINGS_FIELDS.feedback_bands.default(DEFAULT_SETTINGS.feedback_bands),
    show_correct_answers: SETTINGS_FIELDS.show_correct_answers.default(DEFAULT_SETTINGS.show_correct_answers),
    available_from: SETTINGS_FIELDS.available_from.default(null),
    available_until: SETTINGS_FIELDS.available_until.default(null),
    time_limit_seconds: SETTINGS_FIELDS.time_limit_seconds.default(null),
    shuffle_questions: SETTINGS_FIELDS.shuffle_questions.default(false),
    shuffle_options: SETTINGS_FIELDS.shuffle_options.default(false),
    pools: SETTINGS_FIELDS.pools.default([]),
    grading_policy: SETTINGS_FIELDS.grading_policy.default(DEFAULT_SETTINGS.grading_policy),
  })
  .openapi("QuizSettingsInput");

export const QuizCreate = z
  .strictObject({
    title,
    description: description.default(""),
    settings: QuizSettingsInput.default(DEFAULT_SETTINGS),
    questions: z
      .array(QuestionInput)
      .max(MAX_QUESTIONS_PER_QUIZ)
      .optional()
      .openapi({ description: "Questions created with the quiz, in one atomic write, in this order." }),
  })
  .openapi("QuizCreate", {
    example: {
      title: "Capitals of Europe",
      description: "European capitals, from Lisbon to Helsinki.",
      settings: {
        max_attempts: 3,
        feedback_bands: [
          { min_score: 0, message: "Keep practising." },
          { min_score: 80, message: "Excellent!" },
        ],
        show_correct_answers: "after_last_attempt",
        time_limit_seconds: 1800,
        grading_policy: "highest",
      },
      questions: [
        {
          type: "single_choice",
          title: "Capital of France",
          tags: ["geography"],
          prompt: "What is the capital of France?",
          points: 1,
          options: [
            { id: "a", text: "Paris" },
            { id: "b", text: "Lyon", feedback: "Lyon is France's third city." },
          ],
          correct_option_id: "a",
          explanation: "Paris has been the capital since 987.",
        },
        { type: "true_false", prompt: "Berlin is the capital of Germany.", points: 1, correct: true },
      ],
    },
  });

export const QuizPatch = z
  .strictObject({
    title: title.optional(),
    description: description.optional(),
    settings: z
      .strictObject({
        max_attempts: SETTINGS_FIELDS.max_attempts.optional(),
        feedback_bands: SETTINGS_FIELDS.feedback_bands.optional(),
        show_correct_answers: SETTINGS_FIELDS.show_correct_answers.optional(),
        available_from: SETTINGS_FIELDS.available_from.optional(),
        available_until: SETTINGS_FIELDS.available_until.optional(),
        time_limit_seconds: SETTINGS_FIELDS.time_limit_seconds.optional(),
        shuffle_questions: SETTINGS_FIELDS.shuffle_questions.optional(),
        shuffle_options: SETTINGS_FIELDS.shuffle_options.optional(),
        pools: SETTINGS_FIELDS.pools.optional(),
        grading_policy: SETTINGS_FIELDS.grading_policy.optional(),
      })
      .optional()
      .openapi({ description: "Settings sent replace those settings; others keep their values." }),
  })
  .openapi("QuizPatch", { example: { title: "Capitals of Europe, 2nd edition", settings: { max_attempts: 5 } } });

/** The quiz the examples create (QuizCreate's example as the API answers it) and read. */
export const QUIZ_EXAMPLE = {
  id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
  title: "Capitals of Europe",
  description: "European capitals, from Lisbon to Helsinki.",
  questions: 2,
  settings: {
    max_attempts: 3,
    feedback_bands: [
      { min_score: 0, message: "Keep practising." },
      { min_score: 80, message: "Excellent!" },
    ],
    show_correct_answers: "after_last_attempt" as const,
    available_from: null,
    available_until: null,
    time_limit_seconds: 1800,
    shuffle_questions: false,
    shuffle_options: false,
    pools: [],
    grading_policy: "highest" as const,
  },
  created_at: "2026-11-21T10:00:00.000Z",
  updated_at: "2026-11-21T10:00:00.000Z",
};

export const Quiz = z
  .object({
    id: idSchema("quiz"),
    title: z.string(),
    description: z.string(),
    questions: z.number().int().openapi({ description: "Number of questions.", example: 10 }),
    settings: QuizSettings,
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi("Quiz", { example: QUIZ_EXAMPLE });
export type Quiz = z.infer<typeof Quiz>;

/** What creating a quiz answers: the quiz, and the ids of the questions created with it, in order. */
export const CreatedQuiz = Quiz.extend({
  question_ids: z
    .array(idSchema("question"))
    .openapi({ description: "The ids of the questions created with the quiz, in their order (`questions` is their count)." }),
}).openapi("CreatedQuiz", {
  example: { ...QUIZ_EXAMPLE, question_ids: ["qst_01kamz3f7c9n0p8s6e5vwx2y4r", "qst_01kamz3g1d2e3f4g5h6j7k8m9n"] },
});
