import { z } from "@hono/zod-openapi";
import { formattedText } from "../content/question-content";
import { listIds, positionalId, storedList } from "./ids";
import { checkUniqueIds, common, idMap, MAX_OPTIONS, Option, OptionInput, RANDOM_IDS } from "./input";
import { isPlainObject, isStringRecord, ROW_BYTES, share } from "./rules";
import { type ChoiceOption, MULTIPLE_CHOICE_SCORINGS, type QuestionBase, type QuestionTypeModule, type Scoring } from "./type";

/** Match each prompt to a choice (prompts may share one): `partial` earns the share of prompts matched. */
export interface MatchingQuestion extends QuestionBase {
  type: "matching";
  prompts: ChoiceOption[];
  choices: ChoiceOption[];
  correct_matches: Record<string, string>;
  scoring: Scoring;
}

/**
 * A matching written as pairs (and distractors) in its usual form: a prompt per pair, a, b, … in
 * order; a choice per distinct text, the pairs' first and then the distractors', with random ids,
 * so that prompts sharing a choice text share the choice; each prompt matched to its pair's choice.
 */
export function matchingFromPairs(pairs: readonly { prompt: string; choice: string }[], distractors: readonly string[]) {
  const texts = [...new Set([...pairs.map((p) => p.choice), ...distractors])];
  const ids = listIds(
    texts.map(() => ({})),
    true,
  );
  const choiceOf = new Map(texts.map((text, i) => [text, ids[i] as string]));
  const prompts = pairs.map((pair, i) => ({ id: positionalId(i), text: pair.prompt }));
  return {
    prompts,
    choices: texts.map((text, i) => ({ id: ids[i] as string, text })),
    correct_matches: Object.fromEntries(pairs.map((pair, i) => [positionalId(i), choiceOf.get(pair.choice) as string])),
  };
}

const Pair = z
  .strictObject({
    prompt: formattedText(1000, false).openapi({ example: "France" }),
    choice: formattedText(1000, false).openapi({ example: "Paris" }),
  })
  .openapi("MatchingPair");

/** The two ways to write a matching's key: their fields, for the issue that names the other way. */
const USUAL_MATCHING = ["prompts", "choices", "correct_matches"] as const;

/** Pairs name each prompt once; distractors are choices unlike each other and every pair's; at most MAX_OPTIONS choices. */
function checkPairs(pairs: { prompt: string; choice: string }[], distractors: string[], ctx: z.RefinementCtx) {
  const prompts = new Set<string>();
  pairs.forEach((pair, i) => {
    if (prompts.has(pair.prompt))
      ctx.addIssue({ code: "custom", path: ["pairs", i, "prompt"], message: "Each prompt may be given once." });
    prompts.add(pair.prompt);
  });
  const choices = new Set(pairs.map((pair) => pair.choice));
  distractors.forEach((text, i) => {
    if (choices.has(text))
      ctx.addIssue({ code: "custom", path: ["distractors", i], message: "Already a choice: a distractor matches no prompt." });
    choices.add(text);
  });
  if (choices.size > MAX_OPTIONS)
    ctx.addIssue({ code: "custom", path: ["distractors"], message: `At most ${MAX_OPTIONS} choices in all.` });
}

const schema = z
  .strictObject({
    type: z.literal("matching"),
    ...common,
    prompts: z.array(OptionInput).min(1).max(MAX_OPTIONS).optional().openapi({
      description: "What is to be matched; ids a, b, … when left out. With choices and correct_matches, unless pairs are given.",
    }),
    choices: z
      .array(OptionInput)
      .min(1)
      .max(MAX_OPTIONS)
      .optional()
      .openapi({
        description: `What it is matched to; prompts may share a choice; ${RANDOM_IDS}, so correct_matches names only choices given with their ids.`,
      }),
    correct_matches: idMap.optional().openapi({ description: "Every prompt id to its one correct choice id." }),
    pairs: z.array(Pair).min(1).max(MAX_OPTIONS).optional().openapi({
      description:
        "Instead of prompts, choices and correct_matches: each prompt with its choice. Stored and returned in the usual form: prompts a, b, … in order, one choice per distinct text (prompts sharing a choice text share the choice), with random ids.",
    }),
    distractors: z
      .array(formattedText(1000, false))
      .max(MAX_OPTIONS - 1)
      .optional()
      .openapi({ description: "With pairs: choices that match no prompt, each unlike every other choice." }),
    scoring: z.enum(MULTIPLE_CHOICE_SCORINGS).default("all_or_nothing").openapi({
      description: "`partial`: the share of prompts matched.",
    }),
  })
  .superRefine((q, ctx) => {
    if (q.pairs !== undefined) {
      for (const field of USUAL_MATCHING)
        if (q[field] !== undefined)
          ctx.addIssue({
            code: "custom",
            path: [field],
            message: "Give either pairs (and distractors) or prompts, choices and correct_matches, not both.",
          });
      checkPairs(q.pairs, q.distractors ?? [], ctx);
      return;
    }
    if (q.distractors !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["distractors"],
        message: "Distractors go with pairs; with choices, list them there.",
      });
    for (const field of USUAL_MATCHING)
      if (q[field] === undefined)
        ctx.addIssue({ code: "custom", path: [field], message: "Required, unless the question is written as pairs." });
    if (q.prompts === undefined || q.choices === undefined || q.correct_matches === undefined) return;
    const prompts = checkUniqueIds(q.prompts, "prompts", ctx);
    const choices = checkUniqueIds(q.choices, "choices", ctx, "", true);
    const unnamed = q.choices.some((c) => c.id === undefined)
      ? " (choice ids left out are random: give each choice its id, or write the question as pairs)"
      : "";
    for (const [prompt, choice] of Object.entries(q.correct_matches)) {
      if (!prompts.has(prompt))
        ctx.addIssue({ code: "custom", path: ["correct_matches", prompt], message: `"${prompt}" is not one of the prompt ids.` });
      else if (!choices.has(choice))
        ctx.addIssue({
          code: "custom",
          path: ["correct_matches", prompt],
          message: `"${choice}" is not one of the choice ids${unnamed}.`,
        });
    }
    const unmatched = [...prompts].filter((id) => !Object.hasOwn(q.correct_matches ?? {}, id));
    if (unmatched.length > 0)
      ctx.addIssue({
        code: "custom",
        path: ["correct_matches"],
        message: `Every prompt needs its match: ${unmatched.join(", ")} has none.`,
      });
  });

/** A question of the type, as the API's examples write it. */
const example: z.input<typeof schema> = {
  type: "matching",
  prompt: "Match each country to its capital.",
  pairs: [
    { prompt: "France", choice: "Paris" },
    { prompt: "Italy", choice: "Rome" },
  ],
  distractors: ["Madrid"],
};

const input = schema.openapi("MatchingQuestionInput", {
  description:
    "Either pairs (and distractors), or prompts, choices (with ids) and correct_matches. Stored and returned in the second form.",
  example,
});

export const matching = {
  fields: ["prompts", "choices", "correct_matches", "scoring"],
  keyFields: ["correct_matches"],
  presentation: { list: "choices", alwaysShuffled: true },
  input,
  example,
  shown: {
    prompts: z.array(Option).optional(),
    choices: z.array(Option).optional(),
    correct_matches: z.record(z.string(), z.string()).optional(),
    scoring: z.enum(MULTIPLE_CHOICE_SCORINGS).optional(),
  },
  definition(q) {
    // Validated: either pairs, or prompts, choices and correct_matches.
    const usual = q.pairs === undefined ? q : { ...q, ...matchingFromPairs(q.pairs, q.distractors ?? []) };
    return {
      prompts: storedList(usual.prompts ?? [], false),
      choices: storedList(usual.choices ?? [], true),
      correct_matches: usual.correct_matches,
      scoring: q.scoring,
    };
  },
  responseProblem(question, response) {
    if (!isPlainObject(response)) return "must be an object of prompt ids to choice ids";
    const prompts = new Set(question.prompts.map((p) => p.id));
    const choices = new Set(question.choices.map((c) => c.id));
    for (const [prompt, choice] of Object.entries(response)) {
      if (!prompts.has(prompt)) return `names "${prompt.slice(0, 64)}", which is not one of the question's prompt ids`;
      if (typeof choice !== "string" || !choices.has(choice)) return "must match each prompt to one of the question's choice ids";
    }
    return undefined;
  },
  isResponse: isStringRecord,
  rowBytes: (question) => ROW_BYTES.entry + 2 * ROW_BYTES.id * question.prompts.length,
  score(question, response, possible) {
    const key = Object.entries(question.correct_matches);
    const given = response as Record<string, unknown>;
    const right = key.filter(([prompt, choice]) => Object.hasOwn(given, prompt) && given[prompt] === choice).length;
    return share(right, key.length, question.scoring, possible);
  },
  correctAnswer: (question) => ({ ...question.correct_matches }),
} satisfies QuestionTypeModule<MatchingQuestion, typeof input>;
