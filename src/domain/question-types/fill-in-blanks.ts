import { z } from "@hono/zod-openapi";
import { singleLineText } from "../../lib/text";
import { formattedText } from "../content/question-content";
import { listIds } from "./ids";
import { checkUniqueIds, common, optionId, optionIds } from "./input";
import { acceptsText, isPlainObject, isStringRecord, ROW_BYTES, share, textResponseProblem } from "./rules";
import { MULTIPLE_CHOICE_SCORINGS, type QuestionBase, type QuestionTypeModule, type Scoring } from "./type";

/** A text with {{blank_id}} markers; each blank takes short-text answers. `partial` (the default) earns the share of blanks right. */
export interface FillInBlanksQuestion extends QuestionBase {
  type: "fill_in_blanks";
  text: string;
  blanks: { id: string; accepted_answers: string[]; case_sensitive: boolean }[];
  scoring: Scoring;
}

const MAX_BLANKS = 26;
/** `{{blank_id}}` in a fill-in-the-blanks text. */
const BLANK_MARKER = /\{\{([^{}]*)\}\}/g;

const schema = z
  .strictObject({
    type: z.literal("fill_in_blanks"),
    ...common,
    text: formattedText(10_000, true).openapi({ description: "The text, with a `{{blank_id}}` marker where each blank goes." }),
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
  });

/** A question of the type, as the API's examples write it. */
const example: z.input<typeof schema> = {
  type: "fill_in_blanks",
  prompt: "Complete the sentence.",
  text: "The capital of France is {{city}} and it lies on the {{river}}.",
  blanks: [
    { id: "city", accepted_answers: ["Paris"] },
    { id: "river", accepted_answers: ["Seine", "the Seine"] },
  ],
};

const input = schema.openapi("FillInBlanksQuestionInput", { example });

export const fillInBlanks = {
  fields: ["text", "blanks", "scoring"],
  // The blanks hold their accepted answers.
  keyFields: ["blanks"],
  input,
  example,
  shown: {
    text: z.string().optional(),
    blanks: z.array(z.object({ id: z.string(), accepted_answers: z.array(z.string()), case_sensitive: z.boolean() })).optional(),
    scoring: z.enum(MULTIPLE_CHOICE_SCORINGS).optional(),
  },
  definition(q) {
    const ids = listIds(q.blanks, false);
    return {
      text: q.text,
      blanks: q.blanks.map((b, i) => ({ id: ids[i], accepted_answers: b.accepted_answers, case_sensitive: b.case_sensitive })),
      scoring: q.scoring,
    };
  },
  responseProblem(question, response) {
    if (!isPlainObject(response)) return "must be an object of blank ids to strings";
    const blanks = new Set(question.blanks.map((b) => b.id));
    for (const [blank, text] of Object.entries(response)) {
      if (!blanks.has(blank)) return `names "${blank.slice(0, 64)}", which is not one of the question's blanks`;
      const problem = textResponseProblem(text);
      if (problem) return `for blank "${blank}" ${problem}`;
    }
    return undefined;
  },
  isResponse: isStringRecord,
  rowBytes: (question) => ROW_BYTES.entry + (ROW_BYTES.id + ROW_BYTES.text) * question.blanks.length,
  score(question, response, possible) {
    const given = response as Record<string, unknown>;
    const right = question.blanks.filter((blank) => {
      const text = Object.hasOwn(given, blank.id) ? given[blank.id] : undefined;
      return typeof text === "string" && acceptsText(blank.accepted_answers, blank.case_sensitive, text);
    }).length;
    return share(right, question.blanks.length, question.scoring, possible);
  },
  correctAnswer: (question) => Object.fromEntries(question.blanks.map((b) => [b.id, [...b.accepted_answers]])),
} satisfies QuestionTypeModule<FillInBlanksQuestion, typeof input>;
