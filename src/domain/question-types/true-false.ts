import { z } from "@hono/zod-openapi";
import { common } from "./input";
import { allOrNothing, ROW_BYTES } from "./rules";
import type { QuestionBase, QuestionTypeModule } from "./type";

export interface TrueFalseQuestion extends QuestionBase {
  type: "true_false";
  correct: boolean;
}

const schema = z.strictObject({ type: z.literal("true_false"), ...common, correct: z.boolean() });

/** A question of the type, as the API's examples write it. */
const example: z.input<typeof schema> = { type: "true_false", prompt: "The Seine flows through Paris.", correct: true };

const input = schema.openapi("TrueFalseQuestionInput", { example });

export const trueFalse = {
  fields: ["correct"],
  keyFields: ["correct"],
  input,
  example,
  shown: { correct: z.boolean().optional() },
  definition: (q) => ({ correct: q.correct }),
  responseProblem: (_question, response) => (typeof response === "boolean" ? undefined : "must be a boolean"),
  isResponse: (response) => typeof response === "boolean",
  rowBytes: () => ROW_BYTES.entry + 5,
  score: (question, response, possible) => allOrNothing(response === question.correct, possible),
  correctAnswer: (question) => question.correct,
} satisfies QuestionTypeModule<TrueFalseQuestion, typeof input>;
