/**
 * GIFT out, in the form Moodle's importer (and read.ts) reads back: `::title::`, tags as
 * `// [tag:…]` comment lines, option feedback after "#", the explanation after "####", partial
 * credit as "%weight%". GIFT has no points, no ordering, no all-or-nothing scoring over several
 * right parts, no case-sensitive answers and one blank per question: such questions are left out.
 *
 * Every text is escaped for what Moodle's qformat_gift reads in it (docs/security.md, "Exports
 * escape what their format reads"): the backslash and ~ = # { } : get a backslash, every line break
 * (CRLF, CR, LF) is "\n", so a question is one block whatever its text holds; a text Moodle reads
 * a [format] from gets "[plain]" when it starts with "["; an answer Moodle reads a %weight% from
 * gets its weight written when it starts with "%"; "*" in a short answer is "\*" (Moodle's
 * wildcard otherwise). GIFT cannot escape "->": a question it would change is left out.
 */

import { contentFields } from "../../../domain/content/question-content";
import { byType, type PerType } from "../../../domain/question-types";
import { allOrNothingOfMany } from "../../all-or-nothing";
import { assetUrl, type ExportContext, plainText, withImageSources } from "../../rich";
import { shortAnswerPattern } from "../../shortanswer";
import type { ExportFile, QuizForExport, QuizQuestion } from "../../types";

/** GIFT's escapes (Moodle's repchar), with every line break, CR included, as "\n". */
const esc = (s: string) => s.replace(/[\\~=#{}:]/g, "\\$&").replace(/\r\n|\r|\n/g, "\\n");
/**
 * How a question's texts are written: plain text, or (content_format "html") HTML read as
 * Moodle's [html]. A text Moodle reads with parse_text_with_format and that starts with "[" gets
 * its format written, so its own "[html]" or "[plain]" stays text.
 */
interface Texts {
  html: boolean;
  text(s: string): string;
  /** Plain text whatever the question's format (a matching answer, which Moodle reads as plain text). */
  plain(s: string): string;
}
const PLAIN: Texts = { html: false, text: (s) => (s.startsWith("[") ? "[plain]" : "") + esc(s), plain: (s) => s };
const HTML: Texts = { html: true, text: (s) => (s.startsWith("[") ? "[html]" : "") + esc(s), plain: plainText };

/** An answer after "~" or "=" (short answers): a text that starts with "%" gets its weight first, so the text's own "%…%" is text. */
const weighted = (t: Texts, weight: string, s: string) => (s.startsWith("%") ? weight : "") + t.text(s);

const weight = (share: number) => `%${Number((share * 100).toFixed(5))}%`;
const fb = (t: Texts, s: string | null | undefined) => (s ? `#${t.text(s)}` : "");
/** A tag as Moodle reads `[tag:…]`: "]" as "\]"; a final backslash gets a space (trimmed on reading) so it ends nothing. */
const tag = (t: string) => `// [tag:${t.replaceAll("]", "\\]")}${t.endsWith("\\") ? " " : ""}]\n`;

/** Short answers (a short-text question's, a blank's) with the feedback after them. */
function shortAnswers(t: Texts, answers: string[], correct: string | null | undefined): string {
  const patterns = answers.map(shortAnswerPattern);
  // With "->" among the answers, an "=" would make Moodle read a matching question: one answer goes without it.
  if (patterns.length === 1 && [...patterns, correct ?? ""].some((s) => s.includes("->")))
    return `%100%${PLAIN.text(patterns[0] ?? "")}${fb(t, correct)}`;
  return `${patterns.map((a) => `=${weighted(PLAIN, "%100%", a)}`).join(" ")}${fb(t, correct)}`;
}

/** Why GIFT cannot express `q`, or undefined when it can. */
function inexpressible(q: QuizQuestion): string | undefined {
  if (q.type === "ordering") return "ordering";
  if (allOrNothingOfMany(q)) return "all-or-nothing scoring of several parts";
  const arrow = (answers: string[], correct: string | null | undefined) =>
    answers.length > 1 && [...answers, correct ?? ""].some((s) => s.includes("->"));
  if (q.type === "short_text") {
    if (q.case_sensitive) return "case-sensitive answers";
    if (arrow(q.accepted_answers, q.feedback.correct)) return '"->" among several answers, which Moodle reads as matching';
  }
  // Moodle splits a pair at its first "->": one in a prompt would move the split.
  if (q.type === "matching" && q.prompts.some((p) => p.text.includes("->"))) return 'a matching prompt with "->"';
  if (q.type === "fill_in_blanks") {
    const blank = q.blanks[0];
    // One blank, and text after it: GIFT's "missing word" is the only blank it has.
    if (q.blanks.length !== 1 || !blank || blank.case_sensitive || /\}\}\s*$/.test(q.text)) return "a blank GIFT cannot place";
    if (arrow(blank.accepted_answers, q.feedback.correct)) return '"->" among several answers, which Moodle reads as matching';
    // The text starts a line of the file: one starting with "//" would be a comment.
    if (q.text.startsWith("//")) return 'a text starting with "//"';
  }
  return undefined;
}

/** Each type's answer part, between the braces; the general feedback (the explanation) after it. */
const ANSWERS: PerType<QuizQuestion, string, [Texts]> = {
  single_choice: (q, t) =>
    q.options
      .map(
        (o) =>
          `\t${o.id === q.correct_option_id ? `=${t.text(o.text)}` : `~${weighted(t, "%0%", o.text)}`}${fb(t, o.feedback)}\n`,
      )
      .join(""),
  multiple_choice: (q, t) => {
    const k = q.correct_option_ids.length;
    return q.options
      .map((o) => `\t~${weight((q.correct_option_ids.includes(o.id) ? 1 : -1) / k)}${t.text(o.text)}${fb(t, o.feedback)}\n`)
      .join("");
  },
  true_false: (q, t) => {
    const { correct, incorrect } = q.feedback;
    return `${q.correct ? "TRUE" : "FALSE"}${incorrect || correct ? `#${incorrect ? t.text(incorrect) : ""}` : ""}${fb(t, correct)}`;
  },
  short_text: (q, t) => shortAnswers(t, q.accepted_answers, q.feedback.correct),
  numeric: (q, t) =>
    `#${q.correct_value}:${q.tolerance}${fb(t, q.feedback.correct)}${q.feedback.incorrect ? ` ~${fb(t, q.feedback.incorrect)}` : ""}`,
  matching: (q, t) => {
    const choice = new Map(q.choices.map((c) => [c.id, t.plain(c.text)]));
    const used = new Set(Object.values(q.correct_matches));
    // A subquestion is read with its format; its answer is plain text (Moodle's subanswers).
    const pairs = q.prompts.map((p) => `\t=${t.text(p.text)} -> ${esc(choice.get(q.correct_matches[p.id] ?? "") ?? "")}\n`);
    const distractors = q.choices.filter((c) => !used.has(c.id)).map((c) => `\t= -> ${esc(t.plain(c.text))}\n`);
    return pairs.join("") + distractors.join("");
  },
  fill_in_blanks: (q, t) => shortAnswers(t, q.blanks[0]?.accepted_answers ?? [], q.feedback.correct),
  essay: () => "",
  // Left out before it gets here: GIFT has no ordering (inexpressible).
  ordering: () => "",
};

function answers(q: QuizQuestion, t: Texts): string {
  return byType(ANSWERS, q, t) + (q.explanation ? `####${t.text(q.explanation)}` : "");
}

/** A question in content_format "html" with its images named by their absolute URL: GIFT carries no files. */
function withImageUrls(q: QuizQuestion, origin?: string): QuizQuestion {
  const copy = structuredClone(q);
  for (const field of contentFields(copy as unknown as Record<string, unknown>))
    field.replace(withImageSources(field.value, (id) => assetUrl(id, origin)));
  return copy;
}

function question(source: QuizQuestion, context: ExportContext): string {
  const t = source.content_format === "html" ? HTML : PLAIN;
  const q = t.html ? withImageUrls(source, context.origin) : source;
  const format = t.html ? "[html]" : "[plain]";
  const head = [...(q.tags ?? []).map(tag), q.title ? `::${esc(q.title)}::` : ""].join("");
  const body = answers(q, t);
  const open = body.includes("\n") ? "{\n" : "{";
  if (q.type !== "fill_in_blanks") return `${head}${format}${esc(q.prompt)} ${open}${body}}\n`;
  // One blank: the prompt, a line break of the file (the text's own are "\n"), then the text with
  // the answers where the blank is (GIFT's "missing word"); the reader's prompt ends at that break.
  const [before = "", after = ""] = q.text.split(/\{\{[^{}]*\}\}/);
  return `${head}${format}${esc(q.prompt)}\n${esc(before)}{${body}}${esc(after)}\n`;
}

export function writeGift(quiz: QuizForExport, questions: QuizQuestion[], context: ExportContext = {}): ExportFile {
  const skipped: string[] = [];
  const blocks: string[] = [];
  for (const q of questions) {
    const why = inexpressible(q);
    if (why) skipped.push(q.id);
    else blocks.push(question(q, context));
  }
  const header = [
    `// ${quiz.title.replace(/\s+/g, " ")}`,
    ...(skipped.length > 0 ? [`// Left out (GIFT cannot express them): ${skipped.join(", ")}`] : []),
  ].join("\n");
  return { body: `${header}\n\n${blocks.join("\n")}`, contentType: "text/plain; charset=utf-8", extension: "gift", skipped };
}
