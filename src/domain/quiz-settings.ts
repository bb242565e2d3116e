import { z } from "@hono/zod-openapi";
import { multiLineText } from "../lib/text";

/**
 * A quiz's settings, defined once: the request and response schemas are built from these, and
 * the stored column, grading and results take their types from them.
 */

export const FeedbackBand = z
  .strictObject({
    min_score: z.number().min(0).max(100).openapi({ example: 80 }),
    message: multiLineText(2000, 1).openapi({ example: "Excellent!" }),
  })
  .openapi("FeedbackBand");
export type FeedbackBand = z.infer<typeof FeedbackBand>;

/** Each setting's schema, for the create, patch and response schemas. */
export const SETTINGS_FIELDS = {
  max_attempts: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .nullable()
    .openapi({ description: "Attempts allowed per user; null is unlimited." }),
  feedback_bands: z
    .array(FeedbackBand)
    .max(20)
    .refine((bands) => new Set(bands.map((b) => b.min_score)).size === bands.length, {
      message: "Each feedback band needs a different min_score.",
    })
    .openapi({ description: "The band with the highest min_score ≤ score gives the submission's feedback." }),
  show_correct_answers: z.boolean().openapi({ description: "Whether results reveal the answer key." }),
};

export const QuizSettings = z.object(SETTINGS_FIELDS).openapi("QuizSettings");
export type QuizSettings = z.infer<typeof QuizSettings>;

/** The settings of a quiz created without them; each left out of a create takes its value here. */
export const DEFAULT_SETTINGS: QuizSettings = { max_attempts: null, feedback_bands: [], show_correct_answers: true };
