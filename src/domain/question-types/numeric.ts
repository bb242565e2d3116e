import { z } from "@hono/zod-openapi";
import { common } from "./input";
import { allOrNothing, ROW_BYTES } from "./rules";
import type { QuestionBase, QuestionTypeModule } from "./type";

/** A number, right within `tolerance` of `correct_value`. */
export interface NumericQuestion extends QuestionBase {
  type: "numeric";
  correct_value: number;
  tolerance: number;
}

/**
 * Tolerances are typed as decimals that binary floats cannot represent, and
 * the subtraction rounds too: 0.4 - 0.3 = 0.10000000000000003 > 0.1. Those
 * errors are a few ulps (~1e-16 relative to the operands), so a slack of 1e-9
 * of the operands' magnitude absorbs them while staying far below any
 * precision a quiz author could meaningfully ask for.
 */
function withinTolerance(response: number, value: number, tolerance: number): boolean {
  const slack = 1e-9 * Math.max(1, Math.abs(response), Math.abs(value));
  return Math.abs(response - value) <= tolerance + slack;
}

const schema = z.strictObject({
  type: z.literal("numeric"),
  ...common,
  correct_value: z.number().min(-1e15).max(1e15),
  tolerance: z.number().min(0).max(1e15).default(0),
});

/** A question of the type, as the API's examples write it. */
const example: z.input<typeof schema> = { type: "numeric", prompt: "π to two decimals?", correct_value: 3.14, tolerance: 0.005 };

const input = schema.openapi("NumericQuestionInput", { example });

const isFiniteNumber = (response: unknown): response is number => typeof response === "number" && Number.isFinite(response);

export const numeric = {
  fields: ["correct_value", "tolerance"],
  // The tolerance too: with the results' points it narrows the key down to an interval.
  keyFields: ["correct_value", "tolerance"],
  input,
  example,
  shown: { correct_value: z.number().optional(), tolerance: z.number().optional() },
  definition: (q) => ({ correct_value: q.correct_value, tolerance: q.tolerance }),
  responseProblem: (_question, response) => (isFiniteNumber(response) ? undefined : "must be a finite number"),
  isResponse: isFiniteNumber,
  rowBytes: () => ROW_BYTES.entry + 25,
  score: (question, response, possible) =>
    allOrNothing(withinTolerance(response as number, question.correct_value, question.tolerance), possible),
  correctAnswer: (question) => ({ value: question.correct_value, tolerance: question.tolerance }),
} satisfies QuestionTypeModule<NumericQuestion, typeof input>;
