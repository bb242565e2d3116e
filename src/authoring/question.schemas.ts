import { z } from "@hono/zod-openapi";
import { POINT_DECIMALS } from "../domain/points";
import { MULTIPLE_CHOICE_SCORINGS, positionalId, QUESTION_TYPES } from "../domain/questions";
import { idSchema } from "../lib/ids";
import { multiLineText, singleLineText } from "../lib/text";

export const MAX_QUESTIONS_PER_QUIZ = 200;
const MIN_OPTIONS = 2;
const MAX_OPTIONS = 26;
const MAX_POINTS = 1_000_000;

const optionId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "Option ids are 1–64 characters of A–Z, a–z, 0–9, _ and -.")
  .openapi({ maxLength: 64 });

/**
 * An object from ids to ids (a matching key). Not z.record alone: zod builds a record's output by
 * assignment and drops a `__proto__` key, and any valid id is data (docs/security.md), so the record
 * only checks the parsed JSON object, which is kept as it came.
 */
const idMap = z
  .unknown()
  .transform((value, ctx) => {
    const checked = z.record(optionId, optionId).safeParse(value);
    if (checked.success) return value as Record<string, string>;
    for (const issue of checked.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    return z.NEVER;
  })
  .openapi({ type: "object", additionalProperties: { type: "string", maxLength: 64, pattern: "^[A-Za-z0-9_-]{1,64}$" } });

const points = z
  .number()
  // Not just positive: a positive value below one micro-point (1e-13) passes the decimals check below and grades as 0.
  // At most POINT_DECIMALS decimals: the grading engine keeps points exact as integer micro-points.
  .min(1e-6, { message: "Points are at least 0.000001." })
  .max(MAX_POINTS)
  .refine((p) => Math.abs(p * 10 ** POINT_DECIMALS - Math.round(p * 10 ** POINT_DECIMALS)) < 1e-6, {
    message: `Points have at most ${POINT_DECIMALS} decimal places.`,
  })
  .default(1)
  .openapi({ example: 1 });

const OptionInput = z.strictObject({ id: optionId.optional(), text: singleLineText(1000) }).openapi("OptionInput");
const Option = z.object({ id: z.string(), text: z.string() }).openapi("Option");
const OPTION_FEEDBACK =
  "Shown with this option's result when the reveal policy shows the key; part of the key, so hidden from credentials without quizzes:write.";
/** A choice question's option, which may carry feedback of its own; items, prompts and choices do not. */
const ChoiceOptionInput = z
  .strictObject({
    id: optionId.optional(),
    text: singleLineText(1000),
    feedback: multiLineText(2000, 1).optional().openapi({ description: OPTION_FEEDBACK }),
  })
  .openapi("ChoiceOptionInput");
const ChoiceOption = z
  .object({ id: z.string(), text: z.string(), feedback: z.string().optional().openapi({ description: OPTION_FEEDBACK }) })
  .openapi("ChoiceOption");

const MAX_TAGS = 20;
/**
 * Tags: labels for finding questions (`?tag=` on the list). Like the title they are not part of
 * grading, so changing them makes no new version. Each tag once, as given (after trimming).
 */
const tags = z
  .array(singleLineText(100))
  .max(MAX_TAGS)
  .superRefine((list, ctx) =>
    list.forEach((tag, i) => {
      if (list.indexOf(tag) !== i) ctx.addIssue({ code: "custom", path: [i], message: `"${tag}" is listed twice.` });
    }),
  )
  .openapi({
    uniqueItems: true,
    description: `At most ${MAX_TAGS} tags of 1–100 characters, each once.`,
    example: ["geography", "europe"],
  });
const Feedback = z
  .strictObject({ correct: multiLineText(2000, 1).optional(), incorrect: multiLineText(2000, 1).optional() })
  .openapi("QuestionFeedback");

const common = {
  title: singleLineText(200).nullable().optional().openapi({
    description: "A short name of the question for its authors and in exports; null or left out: none.",
    example: "Capital of France",
  }),
  tags: tags.optional(),
  prompt: multiLineText(10_000, 1).openapi({ example: "What is 2 + 2?" }),
  points,
  feedback: Feedback.default({}),
  explanation: multiLineText(10_000, 1).nullable().optional(),
  pool: singleLineText(100).nullable().optional().openapi({
    description: "A pool label: the quiz's settings.pools say how many of its questions each submission draws.",
    example: "easy",
  }),
};

const position = {
  position: z
    .number()
    .int()
    .min(1)
    .max(MAX_QUESTIONS_PER_QUIZ)
    .optional()
    .openapi({ description: "1-based position; default: after the last question." }),
};

const options = z.array(ChoiceOptionInput).min(MIN_OPTIONS).max(MAX_OPTIONS);

/** Option ids the client left out become a, b, c, … by position (not items' and choices': see domain/questions). */
function optionIds(input: { id?: string }[]): string[] {
  return input.map((o, i) => o.id ?? positionalId(i));
}

function checkOptions(input: { options: { id?: string }[] }, ctx: z.RefinementCtx, correct: { path: string; ids: string[] }) {
  const ids = optionIds(input.options);
  const seen = checkUniqueIds(input.options, "options", ctx, "option ");
  correct.ids.forEach((id, i) => {
    if (!seen.has(id)) {
      const path = correct.path === "correct_option_ids" ? [correct.path, i] : [correct.path];
      ctx.addIssue({ code: "custom", path, message: `"${id}" is not one of the option ids (${ids.join(", ")}).` });
    }
  });
}

const SingleChoiceInput = z
  .strictObject({ type: z.literal("single_choice"), ...common, options, correct_option_id: optionId })
  .superRefine((q, ctx) => checkOptions(q, ctx, { path: "correct_option_id", ids: [q.correct_option_id] }))
  .openapi("SingleChoiceQuestionInput", {
    example: {
      type: "single_choice",
      title: "Capital of France",
      tags: ["geography", "europe"],
      prompt: "Capital of France?",
      options: [{ text: "Paris" }, { text: "Lyon", feedback: "Lyon is France's third city; the capital is Paris." }],
      correct_option_id: "a",
    },
  });

const MultipleChoiceInput = z
  .strictObject({
    type: z.literal("multiple_choice"),
    ...common,
    options,
    correct_option_ids: z.array(optionId).min(1).max(MAX_OPTIONS).openapi({ uniqueItems: true }),
    scoring: z.enum(MULTIPLE_CHOICE_SCORINGS).default("all_or_nothing"),
  })
  .superRefine((q, ctx) => {
    checkOptions(q, ctx, { path: "correct_option_ids", ids: q.correct_option_ids });
    if (new Set(q.correct_option_ids).size !== q.correct_option_ids.length)
      ctx.addIssue({ code: "custom", path: ["correct_option_ids"], message: "Correct option ids must be unique." });
  })
  .openapi("MultipleChoiceQuestionInput", {
    example: {
      type: "multiple_choice",
      prompt: "Which are capitals?",
      points: 2,
      options: [{ text: "Madrid" }, { text: "Porto" }, { text: "Rome" }],
      correct_option_ids: ["a", "c"],
      scoring: "partial",
    },
  });

const TrueFalseInput = z
  .strictObject({ type: z.literal("true_false"), ...common, correct: z.boolean() })
  .openapi("TrueFalseQuestionInput", {
    example: { type: "true_false", prompt: "The Seine flows through Paris.", correct: true },
  });

const ShortTextInput = z
  .strictObject({
    type: z.literal("short_text"),
    ...common,
    accepted_answers: z.array(singleLineText(1000)).min(1).max(100),
    case_sensitive: z.boolean().default(false),
  })
  .openapi("ShortTextQuestionInput", {
    example: { type: "short_text", prompt: "Capital of France, in words?", accepted_answers: ["Paris"], case_sensitive: false },
  });

const NumericInput = z
  .strictObject({
    type: z.literal("numeric"),
    ...common,
    correct_value: z.number().min(-1e15).max(1e15),
    tolerance: z.number().min(0).max(1e15).default(0),
  })
  .openapi("NumericQuestionInput", {
    example: { type: "numeric", prompt: "π to two decimals?", correct_value: 3.14, tolerance: 0.005 },
  });

/**
 * Ids of a list (options, items, prompts, choices, blanks) unique, each issue at the duplicate's
 * path; returns the ids known now: with `random`, ids left out are drawn when the question is
 * stored, unlike any other, so only those given are known and checked.
 */
function checkUniqueIds(list: { id?: string }[], field: string, ctx: z.RefinementCtx, noun = "", random = false): Set<string> {
  const seen = new Set<string>();
  list.forEach((entry, i) => {
    const id = random ? entry.id : (entry.id ?? positionalId(i));
    if (id === undefined) return;
    if (seen.has(id)) ctx.addIssue({ code: "custom", path: [field, i, "id"], message: `Duplicate ${noun}id "${id}".` });
    seen.add(id);
  });
  return seen;
}

const RANDOM_IDS =
  "ids left out are random (8 characters of a–z and 0–9, never a, b, … by position), so that their order tells nothing of the key";

const OrderingInput = z
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
  })
  .openapi("OrderingQuestionInput", {
    description:
      "Items listed in the right order, without ids and without correct_order (ids are then random); or items with ids, in any order, and correct_order.",
    example: {
      type: "ordering",
      prompt: "Put these in the order they happened.",
      items: [{ text: "The Magna Carta" }, { text: "The printing press" }, { text: "The French Revolution" }],
      scoring: "partial",
    },
  });

const Pair = z
  .strictObject({
    prompt: singleLineText(1000).openapi({ example: "France" }),
    choice: singleLineText(1000).openapi({ example: "Paris" }),
  })
  .openapi("MatchingPair");

/** The two ways to write a matching's key: their fields, for the issue that names the other way. */
const USUAL_MATCHING = ["prompts", "choices", "correct_matches"] as const;

const MatchingInput = z
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
      .array(singleLineText(1000))
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
  })
  .openapi("MatchingQuestionInput", {
    description:
      "Either pairs (and distractors), or prompts, choices (with ids) and correct_matches. Stored and returned in the second form.",
    example: {
      type: "matching",
      prompt: "Match each country to its capital.",
      pairs: [
        { prompt: "France", choice: "Paris" },
        { prompt: "Italy", choice: "Rome" },
      ],
      distractors: ["Madrid"],
    },
  });

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

const MAX_BLANKS = 26;
/** `{{blank_id}}` in a fill-in-the-blanks text. */
const BLANK_MARKER = /\{\{([^{}]*)\}\}/g;

const FillInBlanksInput = z
  .strictObject({
    type: z.literal("fill_in_blanks"),
    ...common,
    text: multiLineText(10_000, 1).openapi({ description: "The text, with a `{{blank_id}}` marker where each blank goes." }),
    blanks: z
      .array(
        z.strictObject({
          id: optionId.optional().openapi({ description: "a, b, … by position when left out." }),
          accepted_answers: z.array(singleLineText(1000)).min(1).max(100),
          case_sensitive: z.boolean().default(false),
        }),
      )
      .min(1)
      .max(MAX_BLANKS)
      .openapi({ description: "Each blank's id and accepted answers, matched like a short text's." }),
    scoring: z.enum(MULTIPLE_CHOICE_SCORINGS).default("partial").openapi({
      description: "`partial` (the default): the share of blanks right; `all_or_nothing`.",
    }),
  })
  .superRefine((q, ctx) => {
    const ids = checkUniqueIds(q.blanks, "blanks", ctx);
    const marked = new Map<string, number>();
    for (const [, id = ""] of q.text.matchAll(BLANK_MARKER)) {
      if (!ids.has(id))
        ctx.addIssue({ code: "custom", path: ["text"], message: `The marker {{${id.slice(0, 64)}}} names no blank.` });
      marked.set(id, (marked.get(id) ?? 0) + 1);
    }
    optionIds(q.blanks).forEach((id, i) => {
      const times = marked.get(id) ?? 0;
      if (times !== 1)
        ctx.addIssue({
          code: "custom",
          path: ["blanks", i, "id"],
          message: times === 0 ? `The text has no {{${id}}} marker.` : `The text marks {{${id}}} ${times} times.`,
        });
    });
  })
  .openapi("FillInBlanksQuestionInput", {
    example: {
      type: "fill_in_blanks",
      prompt: "Complete the sentence.",
      text: "The capital of France is {{city}} and it lies on the {{river}}.",
      blanks: [
        { id: "city", accepted_answers: ["Paris"] },
        { id: "river", accepted_answers: ["Seine", "the Seine"] },
      ],
    },
  });

const EssayInput = z
  .strictObject({
    type: z.literal("essay"),
    ...common,
    rubric: multiLineText(10_000, 1)
      .nullable()
      .optional()
      .openapi({ description: "Guidance for reviewers; shown with the key." }),
    max_words: z.number().int().min(1).max(20_000).nullable().optional().openapi({
      description: "The most words (runs of non-whitespace) an answer may have; longer answers → 400.",
    }),
  })
  .openapi("EssayQuestionInput", {
    example: {
      type: "essay",
      prompt: "Explain why the sky is blue.",
      points: 10,
      rubric: "Rayleigh scattering (5); wavelength dependence (3); clarity (2).",
      max_words: 300,
    },
  });

export const QuestionInput = z
  .discriminatedUnion("type", [
    SingleChoiceInput,
    MultipleChoiceInput,
    TrueFalseInput,
    ShortTextInput,
    NumericInput,
    OrderingInput,
    MatchingInput,
    FillInBlanksInput,
    EssayInput,
  ])
  .openapi("QuestionInput");
export type QuestionInput = z.infer<typeof QuestionInput>;

/** A question added to an existing quiz may name its position; the others move down. */
export const QuestionCreate = z
  .discriminatedUnion("type", [
    SingleChoiceInput.safeExtend(position),
    MultipleChoiceInput.safeExtend(position),
    TrueFalseInput.safeExtend(position),
    ShortTextInput.safeExtend(position),
    NumericInput.safeExtend(position),
    OrderingInput.safeExtend(position),
    MatchingInput.safeExtend(position),
    FillInBlanksInput.safeExtend(position),
    EssayInput.safeExtend(position),
  ])
  .openapi("QuestionCreate", {
    example: {
      type: "multiple_choice",
      title: "Capitals",
      tags: ["geography"],
      prompt: "Which of these cities are capitals?",
      points: 2,
      options: [
        { id: "a", text: "Madrid" },
        { id: "b", text: "Porto", feedback: "Porto is Portugal's second city; Lisbon is its capital." },
        { id: "c", text: "Rome" },
      ],
      correct_option_ids: ["a", "c"],
      scoring: "partial",
      position: 1,
    },
  });
export type QuestionCreate = z.infer<typeof QuestionCreate>;

/**
 * PATCH takes any subset of the fields of any type; the merged question is then validated as a
 * whole, so a patch can never leave a question that cannot be graded.
 */
export const QuestionPatch = z
  .strictObject({
    type: z.enum(QUESTION_TYPES).optional(),
    title: z.unknown().optional(),
    tags: z.unknown().optional(),
    prompt: z.unknown().optional(),
    points: z.unknown().optional(),
    feedback: z.unknown().optional(),
    explanation: z.unknown().optional(),
    pool: z.unknown().optional(),
    ...position,
    options: z.unknown().optional(),
    correct_option_id: z.unknown().optional(),
    correct_option_ids: z.unknown().optional(),
    scoring: z.unknown().optional(),
    correct: z.unknown().optional(),
    accepted_answers: z.unknown().optional(),
    case_sensitive: z.unknown().optional(),
    correct_value: z.unknown().optional(),
    tolerance: z.unknown().optional(),
    items: z.unknown().optional(),
    correct_order: z.unknown().optional(),
    prompts: z.unknown().optional(),
    choices: z.unknown().optional(),
    correct_matches: z.unknown().optional(),
    pairs: z.unknown().optional(),
    distractors: z.unknown().optional(),
    text: z.unknown().optional(),
    blanks: z.unknown().optional(),
    rubric: z.unknown().optional(),
    max_words: z.unknown().optional(),
  })
  .openapi("QuestionPatch", {
    example: { prompt: "What is the capital city of France?", points: 2, tags: ["geography", "capitals"] },
    description:
      "Any fields of a question; the result is validated as a whole question of its (new) type. A matching's pairs (and distractors) replace its prompts, choices and correct_matches; an ordering's items sent with ids left out, without correct_order, are the order as listed.",
  });

/** The first question of the quiz the examples create (QuizCreate's example), as quizzes:write reads it. */
export const QUESTION_EXAMPLE = {
  id: "qst_01kamz3f7c9n0p8s6e5vwx2y4r",
  quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
  type: "single_choice" as const,
  title: "Capital of France",
  tags: ["geography"],
  prompt: "What is the capital of France?",
  points: 1,
  position: 1,
  feedback: {},
  explanation: "Paris has been the capital since 987.",
  pool: null,
  options: [
    { id: "a", text: "Paris" },
    { id: "b", text: "Lyon", feedback: "Lyon is France's third city." },
  ],
  correct_option_id: "a",
  version: 1,
  created_at: "2026-11-21T10:00:00.000Z",
  updated_at: "2026-11-21T10:00:00.000Z",
};

export const Question = z
  .object({
    id: idSchema("question"),
    quiz_id: idSchema("quiz"),
    type: z.enum(QUESTION_TYPES),
    title: z.string().nullable().openapi({ description: "The question's name for its authors; null when it has none." }),
    tags: z.array(z.string()).openapi({ description: "Its tags, in the order given; `[]` when none." }),
    prompt: z.string(),
    points: z.number(),
    position: z.number().int().openapi({ description: "1-based order within the quiz." }),
    feedback: z
      .object({ correct: z.string().optional(), incorrect: z.string().optional() })
      .openapi({ description: "Shown with an answer's result; part of the key: `{}` to a credential without quizzes:write." }),
    explanation: z.string().nullable().openapi({ description: "Part of the key: null to a credential without quizzes:write." }),
    pool: z.string().nullable().openapi({ description: "The question's pool; null: presented in every submission." }),
    options: z.array(ChoiceOption).optional(),
    correct_option_id: z.string().optional(),
    correct_option_ids: z.array(z.string()).optional(),
    scoring: z.enum(MULTIPLE_CHOICE_SCORINGS).optional(),
    correct: z.boolean().optional(),
    accepted_answers: z.array(z.string()).optional(),
    case_sensitive: z.boolean().optional(),
    correct_value: z.number().optional(),
    tolerance: z.number().optional(),
    items: z.array(Option).optional(),
    correct_order: z.array(z.string()).optional(),
    prompts: z.array(Option).optional(),
    choices: z.array(Option).optional(),
    correct_matches: z.record(z.string(), z.string()).optional(),
    text: z.string().optional(),
    blanks: z.array(z.object({ id: z.string(), accepted_answers: z.array(z.string()), case_sensitive: z.boolean() })).optional(),
    rubric: z.string().nullable().optional(),
    max_words: z.number().int().nullable().optional(),
    version: z.number().int().min(1).openapi({
      description:
        "1 at creation, +1 for every change to what grading reads (key, options, scoring, points); results name the version each answer was graded against.",
    }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi("Question", {
    example: QUESTION_EXAMPLE,
    description:
      "As a credential with quizzes:write sees it. To any other credential the key is hidden (docs/security.md): no key fields (correct_option_id(s), correct, accepted_answers, correct_value, tolerance, correct_order, correct_matches, blanks, an essay's rubric), `feedback` is `{}`, `explanation` null, options carry no feedback, and an ordering's items and a matching's choices are listed sorted by id, an order that does not depend on the key.",
  });
export type Question = z.infer<typeof Question>;
