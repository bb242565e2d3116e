/**
 * One GIFT question's answer part onto a question type, as Moodle's importer tells them apart:
 * nothing → essay; "#…" → numerical; any "~" → multiple choice (several answers when no "=");
 * "=" with "->" → matching; T/TRUE/F/FALSE → true/false; otherwise short answer. Text after
 * the answers makes it a "missing word" question: the answers' place becomes "_____" (or, for a
 * short answer, the blank of a fill-in-the-blanks question).
 */

import { finish, letterId, randomId, skip } from "../../check";
import { htmlText, LOSS, type Losses, looksLikeHtml } from "../../content";
import { displayTex, stringHoldsMarkup, textAsHtml } from "../../html";
import { readShortAnswer, WILDCARD_NOTE } from "../../shortanswer";
import type { ImportedItem, QuestionInput } from "../../types";
import { answersFromWeights, multipleFromWeights, rangeFromWeights, singleFromWeights } from "../../weights";

/**
 * Escapes become private-use placeholders while the block is split (as in Moodle's
 * escapedchar_pre: "\\" first, then "\:" "\#" "\=" "\{" "\}" "\~" "\n"), then turn back. The
 * source's own characters of that range are first set apart (U+E00F, then the character moved up
 * by 0x10), so no text of the file can pass for a placeholder.
 */
const ESCAPES: Record<string, string> = {
  ":": "\ue001",
  "#": "\ue002",
  "=": "\ue003",
  "{": "\ue004",
  "}": "\ue005",
  "~": "\ue006",
  n: "\ue007",
};
const BACKSLASH = "\ue000";
const SET_APART = "\ue00f";
const RESTORE: Record<string, string> = {
  [BACKSLASH]: "\\",
  "\ue001": ":",
  "\ue002": "#",
  "\ue003": "=",
  "\ue004": "{",
  "\ue005": "}",
  "\ue006": "~",
  "\ue007": "\n",
};
export const unescapeGift = (s: string) =>
  s.replace(/\ue00f[\ue010-\ue01f]|[\ue000-\ue007]/g, (c) =>
    c.length === 2 ? String.fromCharCode(c.charCodeAt(1) - 0x10) : (RESTORE[c] ?? c),
  );
export const protect = (s: string) =>
  s
    .replace(/[\ue000-\ue00f]/g, (c) => SET_APART + String.fromCharCode(c.charCodeAt(0) + 0x10))
    .replace(/\\\\/g, BACKSLASH)
    .replace(/\\([:#={}~n])/g, (_, c: string) => ESCAPES[c] ?? c);

type Format = "moodle" | "html" | "plain" | "markdown";

const FORMAT_MARKER = /^[ \t\r\n]*\[(moodle|html|plain|markdown)\]/;

/**
 * A text's body (escapes still protected) in `format`, untrimmed unless it is HTML: plain text, or,
 * when the question keeps its HTML (`html`), an HTML fragment — `[html]` and `[moodle]` texts as
 * written (`$$…$$` made `\[…\]`), `[plain]` and `[markdown]` escaped (Markdown kept as its text, noted).
 */
function plainText(body: string, format: Format, losses: Losses, html = false): string {
  const text = unescapeGift(body);
  if (format === "markdown" && /[*_`#]|\]\(/.test(text)) losses.add(LOSS.markdown);
  if (html) return format === "html" || format === "moodle" ? displayTex(text) : textAsHtml(text);
  if (format === "html" || (format === "moodle" && looksLikeHtml(text))) return htmlText(text, losses);
  return text;
}

/** A text with its optional [format] prefix (Moodle's parse_text_with_format), unescaped, as plain text or (`html`) HTML. */
function giftText(raw: string, fallback: Format, losses: Losses, html = false): { text: string; format: Format } {
  const match = FORMAT_MARKER.exec(raw);
  const format = (match?.[1] as Format | undefined) ?? fallback;
  return { text: plainText(match ? raw.slice(match[0].length) : raw, format, losses, html).trim(), format };
}

/** Moodle reads a weight when an answer starts with "%", digits (a decimal point and more allowed) and "%". */
const WEIGHT = /^%(-?\d+(?:\.\d*)?)%/;

/** An answer's weight prefix (%50%, unless `weighted` is false: Moodle reads none after "="), its text and its "#feedback". */
function answerParts(raw: string, defaultWeight: number, weighted = true) {
  let s = raw.trim();
  let weight = defaultWeight;
  const w = weighted ? WEIGHT.exec(s) : null;
  if (w) {
    weight = Number(w[1]) / 100;
    s = s.slice(w[0].length);
  }
  const hash = s.indexOf("#");
  return { weight, text: hash >= 0 ? s.slice(0, hash) : s, feedback: hash >= 0 ? s.slice(hash + 1) : "" };
}

const number = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));

/** A numerical answer as value and tolerance, as Moodle splits it: at the first ".." ("min..max"), else at the first ":". */
function numericAnswer(answer: string): [number, number] {
  const range = answer.indexOf("..");
  if (range > 0) {
    const [min, max] = [number(answer.slice(0, range)), number(answer.slice(range + 2))];
    return [(min + max) / 2, (max - min) / 2];
  }
  const colon = answer.indexOf(":");
  if (colon > 0) return [number(answer.slice(0, colon)), Math.abs(number(answer.slice(colon + 1)))];
  return [number(answer), 0];
}

/** A source's text in a note: at most 40 characters of it. */
const quote = (s: string) => `"${s.length > 40 ? `${s.slice(0, 39)}…` : s}"`;

const nonEmpty = (list: string[]) => list.map((s) => s.trim()).filter((s) => s !== "");

export interface GiftSource {
  source_id: string;
  title?: string;
  tags: string[];
  line: number;
  /** The service's origin: an `img` may name one of its assets by absolute URL. */
  origin?: string;
  before: string;
  after: string;
  answers: string;
}

/** A short answer's text, Moodle's "\*" a star; a wildcard is noted once. */
function shortAnswers(parts: { text: string; weight: number }[], notes: string[]) {
  const read = parts.map((p) => ({ ...readShortAnswer(p.text), weight: p.weight }));
  if (read.some((a) => a.wildcard && a.weight >= 1 - 1e-6)) notes.push(WILDCARD_NOTE);
  return read;
}

export function giftQuestion(src: GiftSource): ImportedItem {
  const losses: Losses = new Set();
  const notes: string[] = [];
  const fail = (reason: string, type?: QuestionInput["type"]) => skip(src, `Skipped (line ${src.line}): ${reason}.`, type);
  const marked = giftText(src.before, "moodle", new Set());
  const format = marked.format;
  // The question keeps its HTML (CONTRACT §19) when an [html] or [moodle] text holds markup plain text would lose, or TeX.
  const html =
    (format === "html" || format === "moodle") && stringHoldsMarkup(unescapeGift(`${src.before}${src.answers}${src.after}`));
  const stem = giftText(src.before, "moodle", losses, html);
  // The text after the answers continues the question text: no format marker of its own (Moodle reads one per text).
  const tail = src.after.trim() === "" ? "" : plainText(src.after, format, losses, html);
  const missingWord = tail !== "";
  // The blank keeps the spacing the source gave it ("is {…}." stays "is _____.").
  const gap = (blank: string) => `${/\s$/.test(src.before) ? " " : ""}${blank}${/^\s/.test(src.after) ? " " : ""}`;
  const prompt = missingWord ? `${stem.text}${gap("_____")}${tail.trim()}`.trim() : stem.text;
  let answers = src.answers;
  let explanation: string | undefined;
  const general = answers.lastIndexOf("####");
  if (general >= 0) {
    explanation = giftText(answers.slice(general + 4), format, losses, html).text;
    answers = answers.slice(0, general).trim();
  }
  /** A text of the question (HTML when it keeps its HTML); `value`: plain text whatever (an answer compared as text). */
  const text = (raw: string) => giftText(raw, format, losses, html).text;
  const value = (raw: string) => giftText(raw, format, losses).text;
  const base = {
    prompt,
    title: src.title,
    tags: src.tags,
    ...(explanation ? { explanation } : {}),
    ...(html ? { content_format: "html" as const } : {}),
  };
  const done = (q: QuestionInput) => finish(src, q, [...notes, ...losses], { origin: src.origin });

  if (answers === "") return done({ ...base, type: "essay" });

  if (answers.startsWith("#")) {
    let body = answers.slice(1);
    let incorrect: string | undefined;
    const tilde = body.indexOf("~");
    if (tilde >= 0) {
      incorrect = answerParts(body.slice(tilde + 1), 0).feedback;
      body = body.slice(0, tilde);
    }
    const ranges = [];
    for (const raw of nonEmpty(body.split("="))) {
      const part = answerParts(raw, 1);
      const answer = unescapeGift(part.text).trim();
      const [value, tolerance] = numericAnswer(answer);
      if (answer === "" || !Number.isFinite(value) || !Number.isFinite(tolerance))
        return fail(`${quote(answer)} is not a number`, "numeric");
      ranges.push({ value, tolerance, weight: part.weight, text: answer, feedback: part.feedback });
    }
    const { kept, notes: weightNotes } = rangeFromWeights(ranges);
    if (!kept) return fail("no numeric answer gives full credit", "numeric");
    notes.push(...weightNotes);
    const correct = kept.feedback ? text(kept.feedback) : undefined;
    const wrong = incorrect ? text(incorrect) : undefined;
    return done({
      ...base,
      type: "numeric",
      correct_value: kept.value,
      tolerance: kept.tolerance,
      feedback: { correct, incorrect: wrong },
    });
  }

  if (answers.includes("~")) {
    const single = answers.includes("=");
    const parts = nonEmpty(answers.replace(/=/g, "~=").split("~")).map((raw) =>
      raw.startsWith("=") ? { ...answerParts(raw.slice(1), 1, false), weight: 1 } : answerParts(raw, 0),
    );
    if (parts.length < 2)
      return fail("a choice question needs at least two answers", single ? "single_choice" : "multiple_choice");
    const options = parts.map((p, i) => ({
      id: letterId(i),
      text: text(p.text),
      weight: p.weight,
      feedback: p.feedback ? text(p.feedback) : undefined,
    }));
    const clean = options.map(({ id, text, feedback }) => ({ id, text, ...(feedback ? { feedback } : {}) }));
    if (single) {
      const { correct_option_id, notes: n } = singleFromWeights(options);
      notes.push(...n);
      return done({ ...base, type: "single_choice", options: clean, correct_option_id });
    }
    const { correct_option_ids, scoring, notes: n } = multipleFromWeights(options);
    if (correct_option_ids.length === 0) return fail("no answer gives credit", "multiple_choice");
    notes.push(...n);
    return done({ ...base, type: "multiple_choice", options: clean, correct_option_ids, scoring });
  }

  if (answers.includes("=") && answers.includes("->")) {
    const pairs = nonEmpty(answers.split("=")).map((raw) => {
      const arrow = raw.indexOf("->");
      // A subquestion is a text with a format; its answer is plain text (Moodle's subanswers).
      return arrow < 0 ? undefined : { prompt: text(raw.slice(0, arrow)), choice: unescapeGift(raw.slice(arrow + 2)).trim() };
    });
    if (pairs.some((p) => p === undefined)) return fail('a matching answer has no "->"', "matching");
    const choiceIds = new Map<string, string>();
    for (const p of pairs) if (p && !choiceIds.has(p.choice)) choiceIds.set(p.choice, randomId());
    const prompts = pairs.filter((p) => p !== undefined && p.prompt !== "");
    return done({
      ...base,
      type: "matching",
      prompts: prompts.map((p, i) => ({ id: letterId(i), text: p?.prompt ?? "" })),
      choices: [...choiceIds].map(([choice, id]) => ({ id, text: html ? textAsHtml(choice) : choice })),
      correct_matches: Object.fromEntries(prompts.map((p, i) => [letterId(i), choiceIds.get(p?.choice ?? "") ?? ""])),
      scoring: "partial",
    });
  }

  const tf = /^(T|TRUE|F|FALSE)\s*(?:#|$)/.exec(answers);
  if (tf) {
    // Moodle's split_truefalse_comment: the answer, the wrong answer's feedback, then the rest is the right one's.
    const first = answers.indexOf("#");
    const second = first < 0 ? -1 : answers.indexOf("#", first + 1);
    const wrong = first < 0 ? "" : answers.slice(first + 1, second < 0 ? undefined : second);
    const right = second < 0 ? "" : answers.slice(second + 1);
    const feedback = { correct: right.trim() ? text(right) : undefined, incorrect: wrong.trim() ? text(wrong) : undefined };
    return done({ ...base, type: "true_false", correct: tf[1]?.startsWith("T") ?? false, feedback });
  }

  const parts = nonEmpty(answers.split("=")).map((raw) => answerParts(raw, 1));
  const read = shortAnswers(
    parts.map((p) => ({ text: value(p.text), weight: p.weight })),
    notes,
  );
  const { accepted, notes: n } = answersFromWeights(read);
  if (accepted.length === 0) return fail("no answer gives full credit", "short_text");
  notes.push(...n);
  const feedbacks = [...new Set(parts.filter((p) => p.weight === 1 && p.feedback.trim()).map((p) => text(p.feedback)))];
  if (feedbacks.length > 1) notes.push("Per-answer feedback was dropped: a short answer here has one correct feedback.");
  const feedback = { correct: feedbacks.length === 1 ? feedbacks[0] : undefined };
  if (!missingWord) return done({ ...base, type: "short_text", accepted_answers: accepted, case_sensitive: false, feedback });
  return done({
    ...base,
    ...fillIn(src, format, losses, html),
    blanks: [{ id: "a", accepted_answers: accepted, case_sensitive: false }],
    scoring: "partial",
    feedback,
  });
}

/**
 * A missing word with a short answer as a fill-in text and its prompt. The prompt is the question
 * text up to the last line break of the file before the blank (an escaped "\n" is text: that is
 * how the writer keeps the text's own lines apart from the prompt); a file with no such break
 * gives it up to the last "\n". The text keeps its spacing around the blank as it is.
 */
function fillIn(src: GiftSource, format: Format, losses: Losses, html: boolean) {
  const marker = FORMAT_MARKER.exec(src.before);
  const before = marker ? src.before.slice(marker[0].length) : src.before;
  let cut = before.lastIndexOf("\n");
  let skipped = 1;
  if (cut < 0) {
    cut = before.lastIndexOf(ESCAPES.n ?? "");
    skipped = (ESCAPES.n ?? "").length;
  }
  const lead = cut < 0 ? "" : plainText(before.slice(0, cut), format, losses, html).trim();
  const line = cut < 0 ? before : before.slice(cut + skipped);
  return {
    prompt: lead || src.title || "Fill in the blank.",
    type: "fill_in_blanks" as const,
    text: `${plainText(line, format, losses, html)}{{a}}${plainText(src.after, format, losses, html)}`.trim(),
  };
}
