import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";
import { multiLineText, singleLineText } from "../../lib/text";
import { MAX_QUESTIONS_PER_QUIZ, QuestionInput } from "../questions/questions.schemas";

const title = singleLineText(200).openapi({ example: "Capitals of Europe" });
const description = multiLineText(10_000).openapi({ example: "Ten questions on European capitals." });

const FeedbackBand = z
  .strictObject({
    min_score: z.number().min(0).max(100).openapi({ example: 80 }),
    message: multiLineText(2000, 1).openapi({ example: "Excellent!" }),
  })
  .openapi("FeedbackBand");

const feedbackBands = z
  .array(FeedbackBand)
  .max(20)
  .refine((bands) => new Set(bands.map((b) => b.min_score)).size === bands.length, {
    message: "Each feedback band needs a different min_score.",
  })
  .openapi({ description: "The band with the highest min_score ≤ score gives the submission's feedback." });

const settingsFields = {
  max_attempts: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .nullable()
    .openapi({ description: "Attempts allowed per user; null is unlimited." }),
  feedback_bands: feedbackBands,
  show_correct_answers: z.boolean().openapi({ description: "Whether results reveal the answer key." }),
};

export const DEFAULT_SETTINGS = { max_attempts: null, feedback_bands: [], show_correct_answers: true };

export const QuizSettingsInput = z
  .strictObject({
    max_attempts: settingsFields.max_attempts.default(null),
    feedback_bands: settingsFields.feedback_bands.default([]),
    show_correct_answers: settingsFields.show_correct_answers.default(true),
  })
  .openapi("QuizSettingsInput");

export const QuizSettings = z.object(settingsFields).openapi("QuizSettings");

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
  .openapi("QuizCreate");

export const QuizPatch = z
  .strictObject({
    title: title.optional(),
    description: description.optional(),
    settings: z
      .strictObject({
        max_attempts: settingsFields.max_attempts.optional(),
        feedback_bands: settingsFields.feedback_bands.optional(),
        show_correct_answers: settingsFields.show_correct_answers.optional(),
      })
      .optional()
      .openapi({ description: "Settings sent replace those settings; others keep their values." }),
  })
  .openapi("QuizPatch");

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
  .openapi("Quiz");
export type Quiz = z.infer<typeof Quiz>;
