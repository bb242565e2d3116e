import { z } from "@hono/zod-openapi";
import { textProblem } from "../../lib/text";
import { MAX_NESTING, NestingTooDeep } from "./tree";

/**
 * Which strings of a question are formatted text, and the rules they follow in each format
 * (CONTRACT §19, docs/content.md). In `"text"` (the default) a field keeps its plain-text limits
 * (a prompt 10 000 characters, an option's text 1 000 on one line, …) and no markup means anything;
 * in `"html"` it is an HTML fragment, sanitized when written, at most MAX_CONTENT_CHARS once
 * sanitized. Both formats' inputs pass the same schema (formattedText); the text format's tighter
 * limits are checked on the whole question (checkTextFormat), which knows its format.
 */

export const CONTENT_FORMATS = ["text", "html"] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];
/** A field's length limit in `"html"`, after sanitizing (TeX becomes longer MathML), and before it. */
export const MAX_CONTENT_CHARS = 100_000;

export const contentFormat = z.enum(CONTENT_FORMATS).default("text").openapi({
  description:
    'How the question\'s texts (prompt, explanation, feedback, option/item/prompt/choice texts, a fill-in-blanks text) are read. `"text"` (the default): plain text, shown as written (`<b>` is shown, not bold). `"html"`: an HTML fragment, stored sanitized to the allow-list of docs/content.md (TeX between `\\(`…`\\)` or `\\[`…`\\]` becomes MathML), at most 100 000 characters a field once sanitized, nesting at most 64 elements. Not part of the key: changing it alone makes no new version.',
  example: "text",
});

/**
 * A formatted text field: trimmed, `min`–MAX_CONTENT_CHARS characters, well-formed, no control
 * characters but tab, LF and CR. In the text format the question's check adds `textMax` and, for
 * a single-line field, no line breaks.
 */
export function formattedText(textMax: number, multiLine: boolean, min = 1) {
  const trimmed = z.string().trim();
  return (min > 0 ? trimmed.min(min) : trimmed)
    .max(MAX_CONTENT_CHARS)
    .superRefine((s, ctx) => {
      const problem = textProblem(s, true);
      if (problem) ctx.addIssue({ code: "custom", message: problem, input: s });
    })
    .openapi({
      description: `Plain text (content_format "text"): trimmed, at most ${textMax} characters${multiLine ? "" : " on one line"}, well-formed Unicode, no control characters${multiLine ? " but tab, line feed and carriage return" : ""}, a visible character. HTML (content_format "html"): at most ${MAX_CONTENT_CHARS} characters once sanitized (docs/content.md).`,
    });
}

/** One formatted text of a question: where it is, its value, its plain-text limits, and how to replace it. */
export interface ContentField {
  path: (string | number)[];
  value: string;
  textMax: number;
  multiLine: boolean;
  replace(value: string): void;
}

const TEXT_LIMITS = {
  prompt: 10_000,
  explanation: 10_000,
  feedback: 2_000,
  listText: 1_000,
  fillText: 10_000,
} as const;

/** The lists whose entries' `text` is formatted (options also have a formatted `feedback`). */
const TEXT_LISTS = ["options", "items", "prompts", "choices"] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The formatted texts of a question input (validated or not: what is not a string is skipped),
 * in a fixed order. The one list of which fields are formatted text.
 */
export function contentFields(question: Record<string, unknown>): ContentField[] {
  const fields: ContentField[] = [];
  const add = (
    holder: Record<string, unknown> | unknown[],
    key: string | number,
    path: (string | number)[],
    textMax: number,
    multiLine: boolean,
  ) => {
    const value = (holder as Record<string | number, unknown>)[key];
    if (typeof value !== "string") return;
    fields.push({
      path,
      value,
      textMax,
      multiLine,
      replace: (next) => {
        (holder as Record<string | number, unknown>)[key] = next;
      },
    });
  };
  add(question, "prompt", ["prompt"], TEXT_LIMITS.prompt, true);
  add(question, "explanation", ["explanation"], TEXT_LIMITS.explanation, true);
  const feedback = question.feedback;
  if (isObject(feedback))
    for (const key of ["correct", "incorrect"]) add(feedback, key, ["feedback", key], TEXT_LIMITS.feedback, true);
  for (const list of TEXT_LISTS) {
    const entries = question[list];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, i) => {
      if (!isObject(entry)) return;
      add(entry, "text", [list, i, "text"], TEXT_LIMITS.listText, false);
      if (list === "options") add(entry, "feedback", [list, i, "feedback"], TEXT_LIMITS.feedback, true);
    });
  }
  const pairs = question.pairs;
  if (Array.isArray(pairs))
    pairs.forEach((pair, i) => {
      if (!isObject(pair)) return;
      add(pair, "prompt", ["pairs", i, "prompt"], TEXT_LIMITS.listText, false);
      add(pair, "choice", ["pairs", i, "choice"], TEXT_LIMITS.listText, false);
    });
  const distractors = question.distractors;
  if (Array.isArray(distractors))
    for (let i = 0; i < distractors.length; i++) add(distractors, i, ["distractors", i], TEXT_LIMITS.listText, false);
  if (question.type === "fill_in_blanks") add(question, "text", ["text"], TEXT_LIMITS.fillText, true);
  return fields;
}

/** The text format's limits, as a question's refinement: each formatted field within its plain-text length, single-line ones on one line. */
export function checkTextFormat(question: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (question.content_format === "html") return;
  for (const field of contentFields(question)) {
    if (field.value.length > field.textMax) {
      ctx.addIssue({
        code: "custom",
        path: field.path,
        message: `Too big: expected string to have <=${field.textMax} characters (plain text; content_format "html" allows ${MAX_CONTENT_CHARS}).`,
      });
      continue;
    }
    const problem = field.multiLine ? undefined : textProblem(field.value, false);
    if (problem) ctx.addIssue({ code: "custom", path: field.path, message: problem });
  }
}

export { MAX_NESTING, NestingTooDeep };
