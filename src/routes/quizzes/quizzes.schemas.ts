import { z } from "@hono/zod-openapi";
import { DEFAULT_SETTINGS, QuizSettings, SETTINGS_FIELDS } from "../../domain/quiz-settings";
import { idSchema } from "../../lib/ids";
import { multiLineText, singleLineText } from "../../lib/text";
import { MAX_QUESTIONS_PER_QUIZ, QuestionInput } from "../questions/questions.schemas";

const title = singleLineText(200).openapi({ example: "Capitals of Europe" });
const description = multiLineText(10_000).openapi({ example: "Ten questions on European capitals." });

const QuizSettingsInput = z
  .strictObject({
    max_attempts: SETTINGS_FIELDS.max_attempts.default(DEFAULT_SETTINGS.max_attempts),
    feedback_bands: SETTINGS_FIELDS.feedback_bands.default(DEFAULT_SETTINGS.feedback_bands),
    show_correct_answers: SETTINGS_FIELDS.show_correct_answers.default(DEFAULT_SETTINGS.show_correct_answers),
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
  .openapi("QuizCreate");

export const QuizPatch = z
  .strictObject({
    title: title.optional(),
    description: description.optional(),
    settings: z
      .strictObject({
        max_attempts: SETTINGS_FIELDS.max_attempts.optional(),
        feedback_bands: SETTINGS_FIELDS.feedback_bands.optional(),
        show_correct_answers: SETTINGS_FIELDS.show_correct_answers.optional(),
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
