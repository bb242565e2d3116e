import { z } from "@hono/zod-openapi";
import { multiLineText } from "../../lib/text";
import { common } from "./input";
import { MAX_ESSAY_LENGTH, MAX_REVIEW_FEEDBACK_LENGTH, ROW_BYTES, textResponseProblem } from "./rules";
import type { QuestionBase, QuestionTypeModule } from "./type";

/** Scored by a person: an answered essay leaves its submission needing review. */
export interface EssayQuestion extends QuestionBase {
  type: "essay";
  rubric?: string | null;
  max_words?: number | null;
}

const schema = z.strictObject({
  type: z.literal("essay"),
  ...common,
  rubric: multiLineText(10_000, 1).nullable().optional().openapi({ description: "Guidance for reviewers; shown with the key." }),
  max_words: z.number().int().min(1).max(20_000).nullable().optional().openapi({
    description: "The most words (runs of non-whitespace) an answer may have; longer answers → 400.",
  }),
});

/** A question of the type, as the API's examples write it. */
const example: z.input<typeof schema> = {
  type: "essay",
  prompt: "Explain why the sky is blue.",
  points: 10,
  rubric: "Rayleigh scattering (5); wavelength dependence (3); clarity (2).",
  max_words: 300,
};

const input = schema.openapi("EssayQuestionInput", { example });

export const essay = {
  fields: ["rubric", "max_words"],
  // The rubric says what a right answer holds.
  keyFields: ["rubric"],
  input,
  example,
  shown: { rubric: z.string().nullable().optional(), max_words: z.number().int().nullable().optional() },
  definition: (q) => ({ rubric: q.rubric, max_words: q.max_words }),
  responseProblem(question, response) {
    const problem = textResponseProblem(response, MAX_ESSAY_LENGTH);
    if (problem) return problem;
    const words = (response as string).split(/\s+/u).filter((w) => w !== "").length;
    return question.max_words != null && words > question.max_words
      ? `must be at most ${question.max_words} words (it has ${words})`
      : undefined;
  },
  isResponse: (response) => typeof response === "string",
  // The essay, and its review's feedback in the results.
  rowBytes: () => ROW_BYTES.entry + 3 * MAX_ESSAY_LENGTH + 2 + 3 * MAX_REVIEW_FEEDBACK_LENGTH + 2,
  // Scored by a review; until then it counts 0.
  score: () => ({ correct: false, earned: 0 }),
  correctAnswer: () => null,
  awaitsReview: (response) => typeof response === "string" && response.trim() !== "",
} satisfies QuestionTypeModule<EssayQuestion, typeof input>;
