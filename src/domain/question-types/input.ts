import { z } from "@hono/zod-openapi";
import { singleLineText } from "../../lib/text";
import { contentFormat, formattedText } from "../content/question-content";
import { POINT_DECIMALS } from "../points";
import { positionalId } from "./ids";

/**
 * The parts of a question's input schema that every type shares: the common fields, ids, option
 * lists and the checks of their ids. Each type's module builds its input from these.
 */

export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 26;
const MAX_POINTS = 1_000_000;

export const optionId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "Option ids are 1–64 characters of A–Z, a–z, 0–9, _ and -.")
  .openapi({ maxLength: 64 });

/**
 * An object from ids to ids (a matching key). Not z.record alone: zod builds a record's output by
 * assignment and drops a `__proto__` key, and any valid id is data (docs/security.md), so the record
 * only checks the parsed JSON object, which is kept as it came. Typed as what it accepts: a
 * request's JSON object of ids.
 */
export const idMap = z
  .unknown()
  .transform((value, ctx) => {
    const checked = z.record(optionId, optionId).safeParse(value);
    if (checked.success) return value as Record<string, string>;
    for (const issue of checked.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    return z.NEVER;
  })
  .openapi({
    type: "object",
    additionalProperties: { type: "string", maxLength: 64, pattern: "^[A-Za-z0-9_-]{1,64}$" },
  }) as unknown as z.ZodType<Record<string, string>, Record<string, string>>;

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

export const OptionInput = z.strictObject({ id: optionId.optional(), text: formattedText(1000, false) }).openapi("OptionInput");
export const Option = z.object({ id: z.string(), text: z.string() }).openapi("Option");
const OPTION_FEEDBACK =
  "Shown with this option's result when the reveal policy shows the key; part of the key, so hidden from credentials without quizzes:write.";
/** A choice question's option, which may carry feedback of its own; items, prompts and choices do not. */
const ChoiceOptionInput = z
  .strictObject({
    id: optionId.optional(),
    text: formattedText(1000, false),
    feedback: formattedText(2000, true).optional().openapi({ description: OPTION_FEEDBACK }),
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
  .strictObject({ correct: formattedText(2000, true).optional(), incorrect: formattedText(2000, true).optional() })
  .openapi("QuestionFeedback");

/** The fields every type's input has, spread after its `type`. */
export const common = {
  title: singleLineText(200).nullable().optional().openapi({
    description: "A short name of the question for its authors and in exports; null or left out: none.",
    example: "Capital of France",
  }),
  tags: tags.optional(),
  content_format: contentFormat,
  prompt: formattedText(10_000, true).openapi({ example: "What is 2 + 2?" }),
  points,
  feedback: Feedback.default({}),
  explanation: formattedText(10_000, true).nullable().optional(),
  pool: singleLineText(100).nullable().optional().openapi({
    description: "A pool label: the quiz's settings.pools say how many of its questions each submission draws.",
    example: "easy",
  }),
};

/** A choice question's options (single and multiple choice). */
export const choiceOptions = z.array(ChoiceOptionInput).min(MIN_OPTIONS).max(MAX_OPTIONS);
/** A choice question's options as the API returns them. */
export const shownChoiceOptions = z.array(ChoiceOption).optional();

/** Option ids the client left out become a, b, c, … by position (not items' and choices': see ids.ts). */
export function optionIds(input: { id?: string }[]): string[] {
  return input.map((o, i) => o.id ?? positionalId(i));
}

/**
 * Ids of a list (options, items, prompts, choices, blanks) unique, each issue at the duplicate's
 * path; returns the ids known now: with `random`, ids left out are drawn when the question is
 * stored, unlike any other, so only those given are known and checked.
 */
export function checkUniqueIds(
  list: { id?: string }[],
  field: string,
  ctx: z.RefinementCtx,
  noun = "",
  random = false,
): Set<string> {
  const seen = new Set<string>();
  list.forEach((entry, i) => {
    const id = random ? entry.id : (entry.id ?? positionalId(i));
    if (id === undefined) return;
    if (seen.has(id)) ctx.addIssue({ code: "custom", path: [field, i, "id"], message: `Duplicate ${noun}id "${id}".` });
    seen.add(id);
  });
  return seen;
}

/** A choice question's options unique, and its key naming only them. */
export function checkOptions(
  input: { options: { id?: string }[] },
  ctx: z.RefinementCtx,
  correct: { path: string; ids: string[] },
) {
  const ids = optionIds(input.options);
  const seen = checkUniqueIds(input.options, "options", ctx, "option ");
  correct.ids.forEach((id, i) => {
    if (!seen.has(id)) {
      const path = correct.path === "correct_option_ids" ? [correct.path, i] : [correct.path];
      ctx.addIssue({ code: "custom", path, message: `"${id}" is not one of the option ids (${ids.join(", ")}).` });
    }
  });
}

export const RANDOM_IDS =
  "ids left out are random (8 characters of a–z and 0–9, never a, b, … by position), so that their order tells nothing of the key";
