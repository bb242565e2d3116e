/**
 * GIFT out, in the form Moodle's importer (and gift-read.ts) reads back: `::title::`, tags as
 * `// [tag:…]` comment lines, option feedback after "#", the explanation after "####", partial
 * credit as "%weight%". GIFT has no points, no ordering, no all-or-nothing scoring over several
 * right parts, no case-sensitive answers and one blank per question: such questions are left out.
 */
import { allOrNothingOfMany } from "./export";
import type { ExportFile, QuizForExport, QuizQuestion } from "./types";

/** Escapes GIFT's special characters; line breaks become "\n" so a question stays one block. */
const esc = (s: string) =>
  s
    .replace(/\\/g, "\\\\")
    .replace(/([~=#{}:])/g, "\\$1")
    .replace(/\r?\n/g, "\\n");

const weight = (share: number) => `%${Number((share * 100).toFixed(5))}%`;
const fb = (text: string | null | undefined) => (text ? `#${esc(text)}` : "");

/** Why GIFT cannot express `q`, or undefined when it can. */
function inexpressible(q: QuizQuestion): string | undefined {
  if (q.type === "ordering") return "ordering";
  if (allOrNothingOfMany(q)) return "all-or-nothing scoring of several parts";
  if (q.type === "short_text" && (q.case_sensitive || q.accepted_answers.some((a) => a.includes("->"))))
    return "case-sensitive answers";
  // One blank, and text after it: GIFT's "missing word" is the only blank it has.
  if (q.type === "fill_in_blanks" && (q.blanks.length !== 1 || q.blanks[0]?.case_sensitive || /\}\}\s*$/.test(q.text)))
    return "a blank GIFT cannot place";
  return undefined;
}

function answers(q: QuizQuestion): string {
  const general = q.explanation ? `####${esc(q.explanation)}` : "";
  switch (q.type) {
    case "single_choice":
      return (
        q.options.map((o) => `\t${o.id === q.correct_option_id ? "=" : "~"}${esc(o.text)}${fb(o.feedback)}\n`).join("") + general
      );
    case "multiple_choice": {
      const k = q.correct_option_ids.length;
      return (
        q.options
          .map((o) => `\t~${weight((q.correct_option_ids.includes(o.id) ? 1 : -1) / k)}${esc(o.text)}${fb(o.feedback)}\n`)
          .join("") + general
      );
    }
    case "true_false": {
      const { correct, incorrect } = q.feedback;
      return `${q.correct ? "TRUE" : "FALSE"}${incorrect || correct ? `#${esc(incorrect ?? "")}` : ""}${correct ? `#${esc(correct)}` : ""}${general}`;
    }
    case "short_text":
      return `${q.accepted_answers.map((a) => `=${esc(a)}`).join(" ")}${fb(q.feedback.correct)}${general}`;
    case "numeric":
      return `#${q.correct_value}:${q.tolerance}${fb(q.feedback.correct)}${q.feedback.incorrect ? ` ~${fb(q.feedback.incorrect)}` : ""}${general}`;
    case "matching": {
      const text = new Map(q.choices.map((c) => [c.id, c.text]));
      const used = new Set(Object.values(q.correct_matches));
      const pairs = q.prompts.map((p) => `\t=${esc(p.text)} -> ${esc(text.get(q.correct_matches[p.id] ?? "") ?? "")}\n`);
      const distractors = q.choices.filter((c) => !used.has(c.id)).map((c) => `\t= -> ${esc(c.text)}\n`);
      return pairs.join("") + distractors.join("") + general;
    }
    case "fill_in_blanks":
      return `${(q.blanks[0]?.accepted_answers ?? []).map((a) => `=${esc(a)}`).join(" ")}${fb(q.feedback.correct)}${general}`;
    case "essay":
      return general;
    case "ordering":
      return ""; // left out before it gets here
  }
}

function question(q: QuizQuestion): string {
  const head = [...(q.tags ?? []).map((t) => `// [tag:${t.replace(/\]/g, "")}]\n`), q.title ? `::${esc(q.title)}::` : ""].join(
    "",
  );
  const body = answers(q);
  const open = body.includes("\n") ? "{\n" : "{";
  if (q.type !== "fill_in_blanks") return `${head}[plain]${esc(q.prompt)} ${open}${body}}\n`;
  // One blank: the prompt, then the text with the answers where the blank is (GIFT's "missing word").
  const [before = "", after = ""] = q.text.split(/\{\{[^{}]*\}\}/);
  return `${head}[plain]${esc(q.prompt)}\\n${esc(before)}{${body}}${esc(after)}\n`;
}

export function writeGift(quiz: QuizForExport, questions: QuizQuestion[]): ExportFile {
  const skipped: string[] = [];
  const blocks: string[] = [];
  for (const q of questions) {
    const why = inexpressible(q);
    if (why) skipped.push(q.id);
    else blocks.push(question(q));
  }
  const header = [
    `// ${quiz.title.replace(/\s+/g, " ")}`,
    ...(skipped.length > 0 ? [`// Left out (GIFT cannot express them): ${skipped.join(", ")}`] : []),
  ].join("\n");
  return { body: `${header}\n\n${blocks.join("\n")}`, contentType: "text/plain; charset=utf-8", extension: "gift", skipped };
}
