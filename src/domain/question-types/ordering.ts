import { z } from "@hono/zod-openapi";
import { storedList } from "./ids";
import { checkUniqueIds, common, MAX_OPTIONS, MIN_OPTIONS, Option, OptionInput, optionId, RANDOM_IDS } from "./input";
import { isStringArray, ROW_BYTES, share } from "./rules";
import { type ChoiceOption, MULTIPLE_CHOICE_SCORINGS, type QuestionBase, type QuestionTypeModule, type Scoring } from "./type";

/** Put the items in order: `partial` earns the share of items in their place. */
export interface OrderingQuestion extends QuestionBase {
  type: "ordering";
  items: ChoiceOption[];
  correct_order: string[];
  scoring: Scoring;
}

const schema = z
  .strictObject({
    type: z.literal("ordering"),
    ...common,
    items: z
      .array(OptionInput)
      .min(MIN_OPTIONS)
      .max(MAX_OPTIONS)
      .openapi({ description: `What is to be put in order; ${RANDOM_IDS}.` }),
    correct_order: z.array(optionId).min(MIN_OPTIONS).max(MAX_OPTIONS).optional().openapi({
      description:
        "Every item id once, in the right order. Left out: the items as listed are the right order. Given, every item needs its id (400 otherwise).",
    }),
    scoring: z.enum(MULTIPLE_CHOICE_SCORINGS).default("all_or_nothing").openapi({
      description: "`partial`: the share of items in their place.",
    }),
  })
  .superRefine((q, ctx) => {
    const ids = checkUniqueIds(q.items, "items", ctx, "", true);
    if (q.correct_order === undefined) return;
    if (q.items.some((item) => item.id === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["correct_order"],
        message:
          "Item ids left out are random, so correct_order cannot name them: give every item its id, or leave correct_order out (the items as listed are then the order).",
      });
      return;
    }
    const placed = new Set<string>();
    q.correct_order.forEach((id, i) => {
      if (!ids.has(id))
        ctx.addIssue({ code: "custom", path: ["correct_order", i], message: `"${id}" is not one of the item ids.` });
      else if (placed.has(id)) ctx.addIssue({ code: "custom", path: ["correct_order", i], message: `"${id}" is placed twice.` });
      placed.add(id);
    });
    const missing = [...ids].filter((id) => !placed.has(id));
    if (missing.length > 0)
      ctx.addIssue({
        code: "custom",
        path: ["correct_order"],
        message: `Not a permutation of the items: ${missing.join(", ")} missing.`,
      });
  });

/** A question of the type, as the API's examples write it. */
const example: z.input<typeof schema> = {
  type: "ordering",
  prompt: "Put these in the order they happened.",
  items: [{ text: "The Magna Carta" }, { text: "The printing press" }, { text: "The French Revolution" }],
  scoring: "partial",
};

const input = schema.openapi("OrderingQuestionInput", {
  description:
    "Items listed in the right order, without ids and without correct_order (ids are then random); or items with ids, in any order, and correct_order.",
  example,
});

export const ordering = {
  fields: ["items", "correct_order", "scoring"],
  keyFields: ["correct_order"],
  presentation: { list: "items", alwaysShuffled: true },
  input,
  example,
  shown: {
    items: z.array(Option).optional(),
    correct_order: z.array(z.string()).optional(),
    scoring: z.enum(MULTIPLE_CHOICE_SCORINGS).optional(),
  },
  definition(q) {
    const items = storedList(q.items, true);
    // Without correct_order the items as listed are the order.
    return { items, correct_order: q.correct_order ?? items.map((item) => item.id), scoring: q.scoring };
  },
  responseProblem(question, response) {
    const ids = question.items.map((i) => i.id);
    if (!Array.isArray(response) || response.length !== ids.length) return `must list every item id once (${ids.length})`;
    const seen = new Set<unknown>(response);
    return seen.size === ids.length && ids.every((id) => seen.has(id))
      ? undefined
      : "must be an order of the question's item ids";
  },
  isResponse: isStringArray,
  rowBytes: (question) => ROW_BYTES.entry + ROW_BYTES.id * question.items.length,
  score(question, response, possible) {
    const key = question.correct_order;
    const given = response as string[];
    const right = key.filter((id, i) => given[i] === id).length;
    return share(right, key.length, question.scoring, possible);
  },
  correctAnswer: (question) => [...question.correct_order],
} satisfies QuestionTypeModule<OrderingQuestion, typeof input>;
