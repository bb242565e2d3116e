import { z } from "@hono/zod-openapi";
import { storedList } from "./ids";
import { checkOptions, choiceOptions, common, optionId, shownChoiceOptions } from "./input";
import { allOrNothing, ROW_BYTES } from "./rules";
import type { ChoiceOption, QuestionBase, QuestionTypeModule } from "./type";

/** One option of several is right. */
export interface SingleChoiceQuestion extends QuestionBase {
  type: "single_choice";
  options: ChoiceOption[];
  correct_option_id: string;
}

const schema = z
  .strictObject({ type: z.literal("single_choice"), ...common, options: choiceOptions, correct_option_id: optionId })
  .superRefine((q, ctx) => checkOptions(q, ctx, { path: "correct_option_id", ids: [q.correct_option_id] }));

/** A question of the type, as the API's examples write it. */
const example: z.input<typeof schema> = {
  type: "single_choice",
  title: "Capital of France",
  tags: ["geography", "europe"],
  prompt: "Capital of France?",
  options: [{ text: "Paris" }, { text: "Lyon", feedback: "Lyon is France's third city; the capital is Paris." }],
  correct_option_id: "a",
};

const input = schema.openapi("SingleChoiceQuestionInput", { example });

export const singleChoice = {
  fields: ["options", "correct_option_id"],
  keyFields: ["correct_option_id"],
  presentation: { list: "options", alwaysShuffled: false },
  input,
  example,
  shown: { options: shownChoiceOptions, correct_option_id: z.string().optional() },
  definition: (q) => ({ options: storedList(q.options, false), correct_option_id: q.correct_option_id }),
  responseProblem(question, response) {
    if (typeof response !== "string") return "must be an option id (a string)";
    return question.options.some((o) => o.id === response) ? undefined : "must be one of the question's option ids";
  },
  isResponse: (response) => typeof response === "string",
  rowBytes: () => ROW_BYTES.entry + 2 * ROW_BYTES.id,
  score: (question, response, possible) => allOrNothing(response === question.correct_option_id, possible),
  correctAnswer: (question) => question.correct_option_id,
  choice: {
    options: (question) => question.options,
    chosen: (response) => [response as string],
  },
} satisfies QuestionTypeModule<SingleChoiceQuestion, typeof input>;
