/**
 * One GIFT question's answer part onto a question type, as Moodle's importer tells them apart:
 * nothing → essay; "#…" → numerical; any "~" → multiple choice (several answers when no "=");
 * "=" with "->" → matching; T/TRUE/F/FALSE → true/false; otherwise short answer. Text after
 * the answers makes it a "missing word" question: the answers' place becomes "_____" (or, for a
 * short answer, the blank of a fill-in-the-blanks question).
 */

import { finish, letterId, randomId, skip } from "./check";
import { htmlText, LOSS, type Losses, looksLikeHtml } from "./content";
import type { ImportedItem, QuestionInput } from "./types";
import { answersFromWeights, multipleFromWeights, rangeFromWeights, singleFromWeights } from "./weights";

/** Escapes become private-use placeholders while the block is split, then turn back. */
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
export const unescapeGift = (s: string) => s.replace(/[\ue000-\ue007]/g, (c) => RESTORE[c] ?? c);
export const protect = (s: string) => s.replace(/\\\\/g, BACKSLASH).replace(/\\([:#={}~n])/g, (_, c: string) => ESCAPES[c] ?? c);

type Format = "moodle" | "html" | "plain" | "markdown";

/** A text with its optional [format] prefix, unescaped and reduced to plain text. */
function giftText(raw: string, fallback: Format, losses: Losses): { text: string; format: Format } {
  const match = /^\s*\[(moodle|html|plain|markdown)\]/.exec(raw);
  const format = (match?.[1] as Format | undefined) ?? fallback;
  const body = unescapeGift(match ? raw.slice(match[0].length) : raw).trim();
  if (format === "html" || (format === "moodle" && looksLikeHtml(body))) return { text: htmlText(body, losses), format };
  if (format === "markdown" && /[*_`#]|\]\(/.test(body)) losses.add(LOSS.markdown);
  return { text: body, format };
}

const WEIGHT = /^%(-?\d+(?:\.\d+)?)%/;

/** An answer's weight prefix (%50%), its text and its "#feedback". */
function answerParts(raw: string, defaultWeight: number) {
  let s = raw.trim();
  let weight = defaultWeight;
  const w = WEIGHT.exec(s);
  if (w) {
    weight = Number(w[1]) / 100;
    s = s.slice(w[0].length);
  }
  const hash = s.indexOf("#");
  return { weight, text: hash >= 0 ? s.slice(0, hash) : s, feedback: hash >= 0 ? s.slice(hash + 1) : "" };
}

const nonEmpty = (list: string[]) => list.map((s) => s.trim()).filter((s) => s !== "");

export interface GiftSource {
  source_id: string;
  title?: string;
  tags: string[];
  line: number;
  before: string;
  after: string;
  answers: string;
}

export function giftQuestion(src: GiftSource): ImportedItem {
  const losses: Losses = new Set();
  const notes: string[] = [];
  const fail = (reason: string, type?: QuestionInput["type"]) => skip(src, `Skipped (line ${src.line}): ${reason}.`, type);
  const stem = giftText(src.before, "moodle", losses);
  const format = stem.format;
  const tail = src.after.trim() === "" ? "" : giftText(src.after, format, losses).text;
  const missingWord = tail !== "";
  // The blank keeps the spacing the source gave it ("is {…}." stays "is _____.").
  const gap = (blank: string) => `${/\s$/.test(src.before) ? " " : ""}${blank}${/^\s/.test(src.after) ? " " : ""}`;
  const prompt = missingWord ? `${stem.text}${gap("_____")}${tail}`.trim() : stem.text;
  let answers = src.answers;
  let explanation: string | undefined;
  const general = answers.lastIndexOf("####");
  if (general >= 0) {
    explanation = giftText(answers.slice(general + 4), format, losses).text;
    answers = answers.slice(0, general).trim();
  }
  const text = (raw: string) => giftText(raw, format, losses).text;
  const base = { prompt, title: src.title, tags: src.tags, ...(explanation ? { explanation } : {}) };
  const done = (q: QuestionInput) => finish(src, q, [...notes, ...losses]);

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
      const range = /^(.+?)\.\.(.+)$/.exec(answer);
      const colon = /^(.+?):(.+)$/.exec(answer);
      const [value, tolerance] = range
        ? [(Number(range[1]) + Number(range[2])) / 2, (Number(range[2]) - Number(range[1])) / 2]
        : colon
          ? [Number(colon[1]), Math.abs(Number(colon[2]))]
          : [Number(answer), 0];
      if (answer === "" || !Number.isFinite(value) || !Number.isFinite(tolerance))
        return fail(`"${answer}" is not a number`, "numeric");
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
      raw.startsWith("=") ? { ...answerParts(raw.slice(1), 1), weight: 1 } : answerParts(raw, 0),
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
      return arrow < 0 ? undefined : { prompt: text(raw.slice(0, arrow)), choice: text(raw.slice(arrow + 2)) };
    });
    if (pairs.some((p) => p === undefined)) return fail('a matching answer has no "->"', "matching");
    const choiceIds = new Map<string, string>();
    for (const p of pairs) if (p && !choiceIds.has(p.choice)) choiceIds.set(p.choice, randomId());
    const prompts = pairs.filter((p) => p !== undefined && p.prompt !== "");
    return done({
      ...base,
      type: "matching",
      prompts: prompts.map((p, i) => ({ id: letterId(i), text: p?.prompt ?? "" })),
      choices: [...choiceIds].map(([choice, id]) => ({ id, text: choice })),
      correct_matches: Object.fromEntries(prompts.map((p, i) => [letterId(i), choiceIds.get(p?.choice ?? "") ?? ""])),
      scoring: "partial",
    });
  }

  const tf = /^(T|TRUE|F|FALSE)\s*(?:#|$)/.exec(answers);
  if (tf) {
    const [, wrong = "", right = ""] = answers.split("#");
    const feedback = { correct: right.trim() ? text(right) : undefined, incorrect: wrong.trim() ? text(wrong) : undefined };
    return done({ ...base, type: "true_false", correct: tf[1]?.startsWith("T") ?? false, feedback });
  }

  const parts = nonEmpty(answers.split("=")).map((raw) => answerParts(raw, 1));
  const { accepted, notes: n } = answersFromWeights(parts.map((p) => ({ text: text(p.text), weight: p.weight })));
  if (accepted.length === 0) return fail("no answer gives full credit", "short_text");
  notes.push(...n);
  const feedbacks = [...new Set(parts.filter((p) => p.weight === 1 && p.feedback.trim()).map((p) => text(p.feedback)))];
  if (feedbacks.length > 1) notes.push("Per-answer feedback was dropped: a short answer here has one correct feedback.");
  const feedback = { correct: feedbacks.length === 1 ? feedbacks[0] : undefined };
  if (!missingWord) return done({ ...base, type: "short_text", accepted_answers: accepted, case_sensitive: false, feedback });
  // A missing word: the lines of the stem before the blank's line are the prompt.
  const breakLast = /\n[ \t]*$/.test(unescapeGift(src.before));
  const lastBreak = breakLast ? stem.text.length : stem.text.lastIndexOf("\n");
  const lead = lastBreak >= 0 ? stem.text.slice(0, lastBreak).trim() : "";
  return done({
    ...base,
    prompt: lead || src.title || "Fill in the blank.",
    type: "fill_in_blanks",
    text: `${stem.text.slice(lastBreak + 1).trim()}${gap("{{a}}")}${tail}`.trim(),
    blanks: [{ id: "a", accepted_answers: accepted, case_sensitive: false }],
    scoring: "partial",
    feedback,
  });
}
