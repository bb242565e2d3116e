import { z } from "@hono/zod-openapi";
import { divRoundHalfUp } from "../points";
import { storedList } from "./ids";
import { checkOptions, choiceOptions, common, MAX_OPTIONS, optionId, shownChoiceOptions } from "./input";
import { allOrNothing, isStringArray, ROW_BYTES } from "./rules";
import { type ChoiceOption, MULTIPLE_CHOICE_SCORINGS, type QuestionBase, type QuestionTypeModule, type Scoring } from "./type";

/** Any options may be right; `partial` earns the share of right options chosen less the wrong ones. */
export interface MultipleChoiceQuestion extends QuestionBase {
  type: "multiple_choice";
  options: ChoiceOption[];
  correct_option_ids: string[];
  scoring: Scoring;
}

const schema = z
  .strictObject({
    type: z.literal("multiple_choice"),
    ...common,
    options: choiceOptions,
    correct_option_ids: z.array(optionId).min(1).max(MAX_OPTIONS).openapi({ uniqueItems: true }),
    scoring: z.enum(MULTIPLE_CHOICE_SCORINGS).default("all_or_nothing"),
  })
  .superRefine((q, ctx) => {
    checkOptions(q, ctx, { path: "correct_option_ids", ids: q.correct_option_ids });
    if (new Set(q.correct_option_ids).size !== q.correct_option_ids.length)
      ctx.addIssue({ code: "custom", path: ["correct_option_ids"], message: "Correct option ids must be unique." });
  });

/** A question of the type, as the API's examples write it. */
const example: z.input<typeof schema> = {
  type: "multiple_choice",
  prompt: "Which are capitals?",
  points: 2,
  options: [{ text: "Madrid" }, { text: "Porto" }, { text: "Rome" }],
  correct_option_ids: ["a", "c"],
  scoring: "partial",
};

const input = schema.openapi("MultipleChoiceQuestionInput", { example });

export const multipleChoice = {
  fields: ["options", "correct_option_ids", "scoring"],
  keyFields: ["correct_option_ids"],
  presentation: { list: "options", alwaysShuffled: false },
  input,
  example,
  shown: {
    options: shownChoiceOptions,
    correct_option_ids: z.array(z.string()).optional(),
    scoring: z.enum(MULTIPLE_CHOICE_SCORINGS).optional(),
  },
  definition: (q) => ({
    options: storedList(q.options, false),
    correct_option_ids: q.correct_option_ids,
    scoring: q.scoring,
  }),
  responseProblem(question, response) {
    if (!Array.isArray(response)) return "must be an array of option ids";
    const ids = new Set(question.options.map((o) => o.id));
    const seen = new Set<string>();
    // for..of (unlike every) visits holes of sparse arrays as undefined.
    for (const item of response) {
      if (typeof item !== "string" || !ids.has(item)) return "must hold only the question's option ids";
      if (seen.has(item)) return "must not repeat an option id";
      seen.add(item);
    }
    return undefined;
  },
  isResponse: isStringArray,
  rowBytes: (question) => ROW_BYTES.entry + 2 * ROW_BYTES.id * question.options.length,
  score(question, response, possible) {
    const key = new Set(question.correct_option_ids);
    const chosen = new Set(response as string[]);
    let right = 0;
    for (const id of chosen) if (key.has(id)) right++;
    const wrong = chosen.size - right;
    const exact = wrong === 0 && right === key.size;
    // An empty key cannot give a share; only the exact (empty) answer scores.
    if (exact || question.scoring === "all_or_nothing" || key.size === 0) return allOrNothing(exact, possible);
    const net = BigInt(Math.max(0, right - wrong));
    return { correct: false, earned: Number(divRoundHalfUp(BigInt(possible) * net, BigInt(key.size))) };
  },
  correctAnswer: (question) => [...new Set(question.correct_option_ids)].sort(),
  choice: {
    options: (question) => question.options,
    chosen: (response) => [...new Set(response as string[])],
  },
} satisfies QuestionTypeModule<MultipleChoiceQuestion, typeof input>;
