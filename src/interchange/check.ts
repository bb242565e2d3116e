/**
 * The last step of every reader: a question as the source gave it becomes a question the API
 * accepts, or a skipped item saying why. Texts are trimmed (single-line ones folded onto one
 * line) and judged by the text rules of docs/security.md; lengths and counts are the API's own limits.
 */

import { MAX_CONTENT_CHARS, NestingTooDeep } from "../domain/content/question-content";
import type { SanitizeOptions } from "../domain/content/sanitize";
import { byType, type PerType } from "../domain/question-types";
import { textProblem } from "../lib/text";
import { removalNotes, sanitizeQuestion } from "./html";
import type { ImportedItem, QuestionInput } from "./types";

/** The API's limits on a question input (src/domain/question-types/). */
const LIMITS = {
  questions: 200,
  title: 200,
  tags: 20,
  tag: 100,
  prompt: 10_000,
  feedback: 2_000,
  optionText: 1_000,
  minOptions: 2,
  maxOptions: 26,
  acceptedAnswers: 100,
  points: 1_000_000,
  value: 1e15,
  maxWords: 20_000,
} as const;

const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The source's identifier when the API accepts it as an id, else `fallback`. */
const safeId = (raw: string | undefined, fallback: string) => (raw !== undefined && ID.test(raw) ? raw : fallback);
/** A QTI identifier as an id: the "_" a writer puts before an id that starts with a digit or "-" comes off. */
export const fromQtiId = (raw: string | undefined, fallback: string) => safeId(raw?.replace(/^_(?=[0-9-])/, ""), fallback);
/** a, b, … z, then a1 … : ids by position for lists whose order the learner sees anyway. */
export const letterId = (i: number) => String.fromCharCode(97 + (i % 26)) + (i >= 26 ? String(Math.floor(i / 26)) : "");

/** Ids no one can tell the key from (docs/security.md): for ordering items and matching choices without source ids. */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");
}

class Invalid extends Error {}

/**
 * A single-line text from a source that may break it: each run of line breaks and tabs, with the
 * white space around it, becomes one space. Other spacing (two spaces, a no-break space) is the
 * text's own and stays, as the API stores it.
 */
export function oneLine(s: string): string {
  if (!/[\t\n\r]/.test(s)) return s;
  const parts = s.split(/[\t\n\r]+/);
  return parts
    .map((p, i) => (i > 0 ? p.trimStart() : p))
    .map((p, i) => (i < parts.length - 1 ? p.trimEnd() : p))
    .filter((p, i) => p !== "" || i === 0 || i === parts.length - 1)
    .join(" ");
}

function text(value: string, field: string, multiLine: boolean, max: number, min = 1): string {
  const s = (multiLine ? value : oneLine(value)).trim();
  const problem = textProblem(s, multiLine);
  if (problem) throw new Invalid(`invalid text in the ${field}: it ${problem}`);
  if (s.length < min) throw new Invalid(`the ${field} is empty (or held only an image or formula)`);
  if (s.length > max) throw new Invalid(`the ${field} is longer than ${max} characters`);
  return s;
}

/** How a question's formatted texts are checked: as plain text with their limits, or (content_format "html") as sanitized HTML. */
type Content = (value: string, field: string, multiLine: boolean, max: number, min?: number) => string;
const plainContent: Content = text;
/** HTML: a fragment already sanitized, judged by the API's limit on it (no single-line folding: markup carries its lines). */
const htmlContent: Content = (value, field, _multiLine, _max, min) => text(value, field, true, MAX_CONTENT_CHARS, min);

function list<T>(items: T[], field: string, min: number, max: number): T[] {
  if (items.length < min) throw new Invalid(`fewer than ${min} ${field}`);
  if (items.length > max) throw new Invalid(`more than ${max} ${field}`);
  return items;
}

const options = (items: { id?: string; text: string; feedback?: string }[], field: string, min: number, content: Content) =>
  list(items, field, min, LIMITS.maxOptions).map((o) => ({
    id: o.id,
    text: content(o.text, `text of ${field.replace(/s$/, "")} "${o.id}"`, false, LIMITS.optionText),
    ...(o.feedback?.trim() ? { feedback: content(o.feedback, "option feedback", true, LIMITS.feedback) } : {}),
  }));

const answers = (items: string[]) =>
  list([...new Set(items.map((a) => text(a, "accepted answer", false, LIMITS.optionText)))], "accepted answers", 1, 100);

/** Each type's own fields made acceptable (or an Invalid error naming why they cannot be), in place. */
const NORMALIZE: PerType<QuestionInput, void, [Content]> = {
  single_choice: (q, content) => {
    q.options = options(q.options, "options", LIMITS.minOptions, content);
  },
  multiple_choice: (q, content) => {
    q.options = options(q.options, "options", LIMITS.minOptions, content);
  },
  true_false: () => {},
  short_text: (q) => {
    q.accepted_answers = answers(q.accepted_answers);
  },
  numeric: (q) => {
    if (!Number.isFinite(q.correct_value) || Math.abs(q.correct_value) > LIMITS.value)
      throw new Invalid("the correct value is out of range");
    const { tolerance } = q;
    if (!(tolerance !== undefined && tolerance >= 0 && tolerance <= LIMITS.value))
      throw new Invalid("the tolerance is out of range");
  },
  ordering: (q, content) => {
    q.items = options(q.items, "items", LIMITS.minOptions, content);
  },
  matching: (q, content) => {
    q.prompts = options(q.prompts ?? [], "prompts", 1, content);
    q.choices = options(q.choices ?? [], "choices", 1, content);
  },
  fill_in_blanks: (q, content) => {
    q.text = content(q.text, "text", true, LIMITS.prompt);
    q.blanks = list(q.blanks, "blanks", 1, 26).map((b) => ({ ...b, accepted_answers: answers(b.accepted_answers) }));
  },
  essay: (q) => {
    if (q.rubric?.trim()) q.rubric = text(q.rubric, "rubric", true, LIMITS.prompt);
    else delete q.rubric;
  },
};

/** `q` made acceptable to the API (or an Invalid error naming why it cannot be); `notes` gets the small losses. */
function normalize(q: QuestionInput, notes: string[]): QuestionInput {
  const content = q.content_format === "html" ? htmlContent : plainContent;
  const out = { ...q, prompt: content(q.prompt, "prompt", true, LIMITS.prompt) } as QuestionInput;
  if (q.title?.trim()) {
    const title = oneLine(q.title).trim();
    if (title.length > LIMITS.title) notes.push(`The title was shortened to ${LIMITS.title} characters.`);
    out.title = text(title.slice(0, LIMITS.title), "title", false, LIMITS.title);
  } else delete out.title;
  if (q.tags) {
    const tags = [...new Set(q.tags.map((t) => oneLine(t).trim().slice(0, LIMITS.tag)).filter((t) => t !== ""))];
    if (tags.length > LIMITS.tags) notes.push(`Only the first ${LIMITS.tags} tags were kept.`);
    out.tags = tags.slice(0, LIMITS.tags).map((t) => text(t, "tag", false, LIMITS.tag));
    if (out.tags.length === 0) delete out.tags;
  }
  if (q.explanation?.trim()) out.explanation = content(q.explanation, "explanation", true, LIMITS.prompt);
  else delete out.explanation;
  const feedback: { correct?: string; incorrect?: string } = {};
  if (q.feedback?.correct?.trim()) feedback.correct = content(q.feedback.correct, "feedback", true, LIMITS.feedback);
  if (q.feedback?.incorrect?.trim()) feedback.incorrect = content(q.feedback.incorrect, "feedback", true, LIMITS.feedback);
  if (feedback.correct || feedback.incorrect) out.feedback = feedback;
  else delete out.feedback;
  if (q.points !== undefined) {
    if (!(q.points > 0)) {
      notes.push(`The source gives ${q.points} points; imported as 1 point.`);
      out.points = 1;
    } else {
      const rounded = Math.min(LIMITS.points, Math.max(1e-6, Math.round(q.points * 1e6) / 1e6));
      if (rounded !== q.points) notes.push(`Points ${q.points} were rounded to ${rounded}.`);
      out.points = rounded;
    }
  }
  byType(NORMALIZE, out, content);
  return out;
}

/**
 * A source item as its report entry and question: approximated when `notes` name losses, skipped
 * when invalid. A question in content_format "html" has its texts sanitized first (`content`: the
 * service's origin, so an absolute asset URL is kept as its path); what the allow-list removed is
 * a loss, but for the source's presentation (classes, styles, comments), which is named without
 * making the item approximated: no text, image or formula is lost with it.
 */
export function finish(
  source: { source_id: string; title?: string },
  question: QuestionInput,
  notes: string[],
  content: SanitizeOptions = {},
): ImportedItem {
  const kept = [...notes];
  let remarks: string[] = [];
  if (question.content_format === "html") {
    try {
      const removed = removalNotes(sanitizeQuestion(question, content));
      kept.push(...removed.losses);
      remarks = removed.remarks;
    } catch (error) {
      if (!(error instanceof NestingTooDeep)) throw error;
      return skip(source, "Skipped: its formatted text nests more than 64 elements deep, more than is stored.", question.type);
    }
  }
  try {
    const q = normalize(question, kept);
    const title = q.title ?? undefined;
    return {
      entry: {
        source_id: source.source_id,
        ...(title ? { title } : {}),
        status: kept.length > 0 ? "approximated" : "imported",
        type: q.type,
        notes: [...kept, ...remarks],
      },
      question: q,
    };
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    return skip(source, `Skipped: ${error.message}.`, question.type);
  }
}

export function skip(source: { source_id: string; title?: string }, reason: string, type?: QuestionInput["type"]): ImportedItem {
  const title = source.title && oneLine(source.title).trim().slice(0, LIMITS.title);
  const shown = title && textProblem(title, false) === undefined ? title : undefined;
  return {
    entry: {
      source_id: source.source_id,
      ...(shown ? { title: shown } : {}),
      status: "skipped",
      ...(type ? { type } : {}),
      notes: [reason],
    },
  };
}
