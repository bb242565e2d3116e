/**
 * Moodle XML in. `<name>` → title and source id, `<generalfeedback>` → explanation,
 * `<defaultgrade>` → points, answer `fraction`s → partial credit (weights.ts), a category → a tag
 * (its path's last segment) on the questions after it, `<tags>` → tags.
 */

import type { Scoring } from "../../../domain/question-types/type";
import { BUDGET, tooManyItems, type WorkBudget } from "../../budget";
import { categoryTag } from "../../category";
import { finish, letterId, oneLine, randomId, skip } from "../../check";
import type { Losses } from "../../content";
import { unreadable } from "../../errors";
import { textAsHtml } from "../../html";
import { ImageStore } from "../../images";
import { readShortAnswer, WILDCARD_NOTE } from "../../shortanswer";
import type { ImportedItem, ImportResult, QuestionInput } from "../../types";
import { answersFromWeights, multipleFromWeights, rangeFromWeights, singleFromWeights } from "../../weights";
import { child, elements, parseXml, textOf, type XmlElement } from "../../xml";
import { readCloze } from "./cloze";
import { type MoodleTexts, moodleTexts } from "./text";

const SKIPPED: Record<string, string> = {
  calculated: "a calculated question",
  calculatedsimple: "a calculated question",
  calculatedmulti: "a calculated question",
  description: "a description without an answer",
};

const value = (q: XmlElement, name: string) => textOf(child(q, name)).trim();
const flag = (q: XmlElement, name: string) => ["1", "true"].includes(value(q, name).toLowerCase());
const fraction = (a: XmlElement) => Number(a.attrs.fraction ?? 0) / 100;

export function readMoodleXml(text: string, budget?: WorkBudget): ImportResult<"moodle_xml"> {
  const root = parseXml(text, { budget });
  if (root.name !== "quiz") throw unreadable(`Not a Moodle XML file: the root element is <${root.name}>, not <quiz>.`);
  const questions = elements(root, "question");
  const count = questions.filter((q) => q.attrs.type !== "category").length;
  if (count > BUDGET.items) throw tooManyItems(count);
  const items: ImportedItem[] = [];
  const images = new ImageStore();
  let category: string | undefined;
  for (const q of questions) {
    const type = q.attrs.type ?? "";
    if (type === "category") {
      category = categoryTag(textOf(child(child(q, "category"), "text")).trim());
      continue;
    }
    const title = oneLine(textOf(child(child(q, "name"), "text"))).trim() || undefined;
    const source = { source_id: title ?? String(items.length + 1), title };
    const reason = Object.hasOwn(SKIPPED, type) ? SKIPPED[type] : undefined;
    if (reason) {
      items.push(skip(source, `Skipped: ${reason}.`));
      continue;
    }
    const losses: Losses = new Set();
    const notes: string[] = [];
    const cloze = type === "multianswer" || type === "cloze";
    const texts = moodleTexts(q, losses, notes, images, !cloze);
    const tags = [
      ...(category ? [category] : []),
      ...elements(child(q, "tags") ?? { name: "", attrs: {}, children: [] }, "tag").map((t) =>
        textOf(child(t, "text") ?? t).trim(),
      ),
    ];
    const grade = Number(value(q, "defaultgrade") || "1");
    const base = {
      prompt: "",
      title,
      tags,
      points: grade,
      explanation: texts.of(child(q, "generalfeedback")),
      feedback: {
        correct: texts.of(child(q, "correctfeedback")) || undefined,
        incorrect: texts.of(child(q, "incorrectfeedback")) || undefined,
      },
      ...(texts.html ? { content_format: "html" as const } : {}),
    };
    const read = (): QuestionInput | string => {
      if (cloze) return readCloze(q, base, notes, losses);
      base.prompt = texts.of(child(q, "questiontext"));
      return question(type, q, base, notes, losses, texts);
    };
    const result = read();
    items.push(typeof result === "string" ? skip(source, `Skipped: ${result}.`) : finish(source, result, [...notes, ...losses]));
  }
  return { format: "moodle_xml", items, ...(images.images.length > 0 ? { images: images.images } : {}) };
}

type Base = Omit<QuestionInput & { type: "essay" }, "type">;

/** What reading a Moodle question uses: its type and element, the common fields read, and where notes and losses go. */
interface MoodleQuestion {
  type: string;
  q: XmlElement;
  base: Base;
  notes: string[];
  losses: Losses;
  texts: MoodleTexts;
  answers: XmlElement[];
  /** An answer as a text of the question (an option, an item). */
  answerText(a: XmlElement): string;
  /** An answer as plain text (a short or numerical answer). */
  answerValue(a: XmlElement): string;
  answerFeedback(a: XmlElement): string | undefined;
}

type Reader = (m: MoodleQuestion) => QuestionInput | string;

const multichoice: Reader = ({ type, q, base, notes, answers, answerText, answerFeedback }) => {
  const options = answers.map((a, i) => ({
    id: letterId(i),
    text: answerText(a),
    weight: fraction(a),
    feedback: answerFeedback(a),
  }));
  const clean = options.map(({ id, text, feedback }) => ({ id, text, ...(feedback ? { feedback } : {}) }));
  if (flag(q, "single")) {
    const { correct_option_id, notes: n } = singleFromWeights(options);
    notes.push(...n);
    return { ...base, type: "single_choice", options: clean, correct_option_id };
  }
  if (type === "multichoiceset") {
    // The all-or-nothing type: every option with credit must be chosen, and nothing else.
    const correct_option_ids = options.filter((o) => o.weight > 0).map((o) => o.id);
    if (correct_option_ids.length === 0) return "no answer gives credit";
    return { ...base, type: "multiple_choice", options: clean, correct_option_ids, scoring: "all_or_nothing" };
  }
  const { correct_option_ids, scoring, notes: n } = multipleFromWeights(options);
  if (correct_option_ids.length === 0) return "no answer gives credit";
  notes.push(...n);
  return { ...base, type: "multiple_choice", options: clean, correct_option_ids, scoring };
};

const truefalse: Reader = ({ base, answers, answerFeedback }) => {
  const right = answers.find((a) => fraction(a) > 0.5);
  if (!right) return "no answer is marked true or false";
  const wrong = answers.find((a) => a !== right);
  const feedback = {
    correct: answerFeedback(right) ?? base.feedback?.correct,
    incorrect: (wrong && answerFeedback(wrong)) ?? base.feedback?.incorrect,
  };
  return { ...base, type: "true_false", correct: textOf(child(right, "text")).trim().toLowerCase() === "true", feedback };
};

const shortanswer: Reader = ({ q, base, notes, texts, answers, answerValue }) => {
  // The "*" answer with no credit is the "anything else" answer that carries the wrong-answer feedback.
  const patterns = answers
    .map((a) => ({ ...readShortAnswer(answerValue(a)), weight: fraction(a) }))
    .filter((a) => !(a.text === "*" && a.wildcard && a.weight <= 0));
  const { accepted, notes: n } = answersFromWeights(patterns);
  if (accepted.length === 0) return "no answer gives full credit";
  notes.push(...n);
  if (patterns.some((a) => a.wildcard && a.weight >= 1 - 1e-6)) notes.push(WILDCARD_NOTE);
  return {
    ...base,
    feedback: answerFeedbacks(answers, texts, notes),
    type: "short_text",
    accepted_answers: accepted,
    case_sensitive: flag(q, "usecase"),
  };
};

const numerical: Reader = ({ q, base, notes, texts, answers, answerValue }) => {
  const ranges = answers
    .map((a) => ({
      text: answerValue(a),
      value: Number(answerValue(a)),
      tolerance: Math.abs(Number(value(a, "tolerance") || 0)),
      weight: fraction(a),
    }))
    .filter((r) => r.text !== "*");
  if (ranges.some((r) => !Number.isFinite(r.value) || !Number.isFinite(r.tolerance))) return "an answer is not a number";
  const { kept, notes: n } = rangeFromWeights(ranges);
  if (!kept) return "no answer gives full credit";
  notes.push(...n);
  if (elements(child(q, "units") ?? q, "unit").length > 0) notes.push("Units were dropped: the answer is a plain number here.");
  return {
    ...base,
    feedback: answerFeedbacks(answers, texts, notes),
    type: "numeric",
    correct_value: kept.value,
    tolerance: kept.tolerance,
  };
};

const matching: Reader = ({ q, base, texts }) => {
  // A subquestion's answer is plain text in Moodle (qtype_match's answertext), whatever the subquestion's format.
  const pairs = elements(q, "subquestion").map((s) => ({
    prompt: texts.of(s),
    choice: oneLine(textOf(child(child(s, "answer"), "text") ?? child(s, "answer"))).trim(),
  }));
  const choiceIds = new Map<string, string>();
  for (const p of pairs) if (p.choice !== "" && !choiceIds.has(p.choice)) choiceIds.set(p.choice, randomId());
  const prompts = pairs.filter((p) => p.prompt !== "");
  return {
    ...base,
    type: "matching",
    prompts: prompts.map((p, i) => ({ id: letterId(i), text: p.prompt })),
    choices: [...choiceIds].map(([text, id]) => ({ id, text: texts.html ? textAsHtml(text) : text })),
    correct_matches: Object.fromEntries(prompts.map((p, i) => [letterId(i), choiceIds.get(p.choice) ?? ""])),
    scoring: "partial",
  };
};

const ordering: Reader = ({ q, base, notes, answers, answerText }) => {
  const items = answers.map((a) => ({ id: randomId(), text: answerText(a) }));
  const grading = value(q, "gradingtype").toUpperCase();
  let scoring: Scoring = "partial";
  if (grading === "ALL_OR_NOTHING" || grading === "-1") scoring = "all_or_nothing";
  else if (grading !== "ABSOLUTE_POSITION" && grading !== "0" && grading !== "")
    notes.push(`Grading "${grading}" became the share of items in their place.`);
  const count = Number(value(q, "selectcount") || 0);
  if (value(q, "selecttype").toUpperCase() !== "ALL" && value(q, "selecttype") !== "" && count > 0 && count < items.length)
    notes.push(`The source shows ${count} of the items at a time; here every item is shown.`);
  return { ...base, type: "ordering", items, correct_order: items.map((i) => i.id), scoring };
};

const essay: Reader = ({ q, base, notes, texts }) => {
  const rubric = texts.plain(child(q, "graderinfo"));
  const maxWords = Number(value(q, "maxwordlimit") || 0);
  if (flag(q, "attachmentsrequired") || Number(value(q, "attachments") || 0) !== 0)
    notes.push("File attachments are not taken here.");
  return { ...base, type: "essay", ...(rubric ? { rubric } : {}), ...(maxWords > 0 ? { max_words: maxWords } : {}) };
};

/** Moodle's question types (qtype names) that read as one of the service's. */
const READERS = new Map<string, Reader>([
  ["multichoiceset", multichoice],
  ["multichoice", multichoice],
  ["truefalse", truefalse],
  ["shortanswer", shortanswer],
  ["numerical", numerical],
  ["matching", matching],
  ["ordering", ordering],
  ["essay", essay],
]);

function question(
  type: string,
  q: XmlElement,
  base: Base,
  notes: string[],
  losses: Losses,
  texts: MoodleTexts,
): QuestionInput | string {
  const read = READERS.get(type);
  if (!read) return `the question type "${type}" is not supported`;
  return read({
    type,
    q,
    base,
    notes,
    losses,
    texts,
    answers: elements(q, "answer"),
    answerText: (a) => texts.of(a),
    answerValue: (a) => texts.plain(a),
    answerFeedback: (a) => texts.of(child(a, "feedback")) || undefined,
  });
}

/** Short and numerical answers carry their feedback per answer: the full-credit answers' (one text) and the "*" answer's. */
function answerFeedbacks(answers: XmlElement[], texts: MoodleTexts, notes: string[]) {
  const of = (a: XmlElement) => texts.of(child(a, "feedback"));
  const right = [
    ...new Set(
      answers
        .filter((a) => fraction(a) >= 1 - 1e-6)
        .map(of)
        .filter((f) => f !== ""),
    ),
  ];
  if (right.length > 1) notes.push("Per-answer feedback was dropped: the right answers here share one feedback.");
  const wrong = answers.find((a) => textOf(child(a, "text")).trim() === "*");
  return { correct: right.length === 1 ? right[0] : undefined, incorrect: (wrong && of(wrong)) || undefined };
}
