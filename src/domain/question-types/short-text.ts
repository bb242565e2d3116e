import { z } from "@hono/zod-openapi";
import { singleLineText } from "../../lib/text";
import { common } from "./input";
import { acceptsText, allOrNothing, ROW_BYTES, textResponseProblem } from "./rules";
import type { QuestionBase, QuestionTypeModule } from "./type";

/** A typed answer, right when it is one of the accepted answers (normalizeText folds both). */
export interface ShortTextQuestion extends QuestionBase {
  type: "short_text";
  accepted_answers: string[];
  case_sensitive: boolean;
}

const schema = z.strictObject({
  type: z.literal("short_text"),
  ...common,
  accepted_answers: z.array(singleLineText(1000)).min(1).max(100),
  case_sensitive: z.boolean().default(false),
});

/** A question of the type, as the API's examples write it. */
const example: z.input<typeof schema> = {
  type: "short_text",
  prompt: "Capital of France, in words?",
  accepted_answers: ["Paris"],
  case_sensitive: false,
};

const input = schema.openapi("ShortTextQuestionInput", { example });

export const shortText = {
  fields: ["accepted_answers", "case_sensitive"],
  keyFields: ["accepted_answers"],
  input,
  example,
  shown: { accepted_answers: z.array(z.string()).optional(), case_sensitive: z.boolean().optional() },
  definition: (q) => ({ accepted_answers: q.accepted_answers, case_sensitive: q.case_sensitive }),
  responseProblem: (_question, response) => textResponseProblem(response),
  isResponse: (response) => typeof response === "string",
  rowBytes: () => ROW_BYTES.entry + ROW_BYTES.text,
  score: (question, response, possible) =>
    allOrNothing(acceptsText(question.accepted_answers, question.case_sensitive, response as string), possible),
  correctAnswer: (question) => [...question.accepted_answers],
} satisfies QuestionTypeModule<ShortTextQuestion, typeof input>;
