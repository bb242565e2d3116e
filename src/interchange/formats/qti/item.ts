/**
 * One QTI assessment item (2.1, 2.2 or 3.0, names already in QTI 2 form) → a question. The
 * interactions decide the type (docs/import-export.md's mapping); the correct response and mapping give the key;
 * the item's response processing, run on probe responses, decides between "imported" and
 * "approximated"; points are MAXSCORE, else SCORE's normal-maximum, else the correct response's score.
 */

import { byType, type PerType } from "../../../domain/question-types";
import type { WorkBudget } from "../../budget";
import { finish, fromQtiId, skip } from "../../check";
import type { Losses } from "../../content";
import { imageDropped, WHY } from "../../images";
import type { ImportedItem, QuestionInput } from "../../types";
import { child, descendants, elements, textOf, type XmlElement } from "../../xml";
import { buildQuestion } from "./interactions";
import { FILL_IN_BLANKS_CLASS } from "./names";
import { describeMismatch, firstMismatch, gradable } from "./probe";
import { htmlRender, needsHtml, plainRender, type Render } from "./render";
import { type Declaration, declaration, type QtiValue, type Run, score, Unsupported } from "./rp";

const UNSUPPORTED = new Set([
  "hotspotInteraction",
  "graphicOrderInteraction",
  "graphicAssociateInteraction",
  "graphicGapMatchInteraction",
  "selectPointInteraction",
  "positionObjectInteraction",
  "sliderInteraction",
  "uploadInteraction",
  "drawingInteraction",
  "mediaInteraction",
  "customInteraction",
  "portableCustomInteraction",
  "hottextInteraction",
]);
/** Content that is not part of the question's text: feedback, scorer-only blocks, templates. */
const HIDDEN = new Set([
  "feedbackInline",
  "feedbackBlock",
  "modalFeedback",
  "rubricBlock",
  "templateBlock",
  "templateInline",
  "endAttemptInteraction",
  "stylesheet",
  "printedVariable",
]);

export interface ItemContext {
  /** The 1-based position, the source id when the item has no identifier. */
  position: number;
  tags?: string[];
  /** The read's budget: the item's response processing is charged to it. */
  budget?: WorkBudget;
  /** The asset path of an `img` src (a file of the package, relative to the item), or undefined when the package has no such file. */
  image?: (src: string) => string | undefined;
}

/** Elements that are one entry of an interaction's lists (options, match sets, word banks, gaps). */
const LISTED = new Set(["simpleChoice", "simpleAssociableChoice", "gapText", "gapImg", "gap", "inlineChoice"]);
/**
 * The longest lists an item may hold. The API takes 26 options and 100 accepted answers, so an
 * interaction with more entries, or more interactions, can only be skipped — and is, before
 * anything is built or probed from it; correct values and mapping entries past MAX_VALUES (26 × 26
 * pairs of a matching fit) likewise. So what an item's lists cost stays linear in the item.
 */
const MAX_LISTED = 100;
const MAX_VALUES = 1_000;

function overlong(item: XmlElement, interactions: XmlElement[]): string | undefined {
  if (interactions.length > MAX_LISTED) return `more than ${MAX_LISTED} interactions`;
  for (const i of interactions) {
    let n = 0;
    const walk = (e: XmlElement) => {
      for (const c of elements(e)) {
        if (LISTED.has(c.name)) n++;
        walk(c);
      }
    };
    walk(i);
    if (n > MAX_LISTED) return `more than ${MAX_LISTED} choices, gaps or words in one interaction`;
  }
  for (const d of elements(item, "responseDeclaration")) {
    const values = elements(child(d, "correctResponse") ?? d, "value").length;
    const entries = elements(child(d, "mapping") ?? d, "mapEntry").length;
    if (values > MAX_VALUES || entries > MAX_VALUES) return `more than ${MAX_VALUES} correct values or mapping entries`;
  }
  return undefined;
}

export function readQtiItem(item: XmlElement, ctx: ItemContext): ImportedItem {
  const source_id = item.attrs.identifier || String(ctx.position);
  const title = item.attrs.title?.trim() || undefined;
  const src = { source_id, title };
  const body = child(item, "itemBody");
  if (!body) return skip(src, "Skipped: the item has no body.");
  const interactions = interactionsOf(body);
  const unsupported = interactions.find((i) => UNSUPPORTED.has(i.name));
  if (unsupported) return skip(src, `Skipped: an unsupported interaction (${unsupported.name}).`);
  if (interactions.length === 0) return skip(src, "Skipped: a description without an answer (no interaction).");
  const long = overlong(item, interactions);
  if (long) return skip(src, `Skipped: ${long}, more than a question here can hold.`);

  const declarations = new Map<string, Declaration>(
    elements(item, "responseDeclaration").map((d) => [d.attrs.identifier ?? "", declaration(d)]),
  );
  const losses: Losses = new Set();
  const notes: string[] = [];
  const images = new Map<string, string | undefined>();
  const image = (src: string) => {
    if (!images.has(src)) {
      const path = ctx.image?.(src);
      if (path === undefined) notes.push(imageDropped(src, WHY.missing));
      images.set(src, path);
    }
    return images.get(src);
  };
  // HTML when plain text would lose something of the body or the feedback (CONTRACT §19).
  const html = needsHtml([body, ...elements(item, "modalFeedback")]);
  const render: Render = html ? htmlRender(losses, image) : plainRender(losses);
  const blanksClass = (body.attrs.class ?? "").split(/\s+/).includes(FILL_IN_BLANKS_CLASS);
  const built = buildQuestion(interactions, declarations, notes, render, blanksClass);
  if (typeof built === "string") return skip(src, `Skipped: ${built}.`);

  // The question's text: the body without feedback and scorer-only content, interactions as `built` renders them.
  const inline = (e: XmlElement) => (HIDDEN.has(e.name) ? "" : built.render(e));
  const feedback = feedbackOf(item, render);
  const q = built.question;
  if (html) q.content_format = "html";
  if (q.type === "fill_in_blanks") {
    // The prompt is what comes before the first part holding a blank: lines of text, or the body's elements.
    const parts = html ? body.children.map((c) => render.text([c], inline)) : render.text(body.children, inline).split("\n");
    const first = parts.findIndex((l) => /\{\{[^{}]+\}\}/.test(l));
    const join = html ? "" : "\n";
    q.text = parts.slice(first).join(join).trim();
    q.prompt = parts.slice(0, first).join(join).trim() || title || "Fill in the blanks.";
  } else {
    const text = render.text(body.children, inline);
    // The answer's place at the end of the text says nothing: the interaction stands there.
    q.prompt = (html ? text.replace(/(<p>)?_____(<\/p>)?$/, "") : text.replace(/\n*_____$/, "")).trim() || text;
  }
  if (q.type === "essay") {
    const rubric = descendants(body, "rubricBlock").find((r) => /scorer/.test(r.attrs.view ?? ""));
    if (rubric) q.rubric = render.plain(rubric.children);
  }
  Object.assign(q, { title, tags: ctx.tags, ...feedback.question });
  if ("options" in q) for (const o of q.options) o.feedback ??= feedback.option(o.id ?? "");

  const rp = child(item, "responseProcessing");
  if (q.type === "numeric") Object.assign(q, toleranceOf(rp, q.correct_value));
  const outcomes = new Map(elements(item, "outcomeDeclaration").map((o) => [o.attrs.identifier ?? "", o]));
  const declared = Number(
    textOf(child(child(outcomes.get("MAXSCORE"), "defaultValue"), "value")) || outcomes.get("SCORE")?.attrs.normalMaximum || 0,
  );
  if (q.type === "essay") {
    q.points = declared > 0 ? declared : 1;
    return finish(src, q, [...notes, ...losses]);
  }
  if (!rp) notes.push("The item has no response processing: it is graded right or wrong against its correct response.");
  // Every outcome starts at its declared default (SCORE at 0): processing may read MAXSCORE and the like.
  const defaults = new Map<string, QtiValue>([
    ["SCORE", 0],
    ...[...outcomes].map(([id, o]): [string, QtiValue] => {
      const d = declaration(o);
      return [id, d.defaultValue ?? (id === "SCORE" ? 0 : null)];
    }),
  ]);
  const run = (response: unknown): number => {
    const responses = built.toQti(response);
    ctx.budget?.spend("evaluationSteps", defaults.size);
    const state: Run = { declarations, responses, outcomes: new Map(defaults), budget: ctx.budget };
    return score(rp, state);
  };
  try {
    const max = run(built.correct);
    q.points = declared > 0 ? declared : max > 0 ? max : 1;
    if (max <= 0) notes.push("The source's processing gives its correct response no score; here it earns full points.");
    else {
      // Partial credit or all or nothing: whatever the source gives a partly right response.
      if ("scoring" in q) {
        const partly = byType(PARTLY_RIGHT, q);
        if (partly.length > 0) q.scoring = partly.some((r) => run(r) > 0) ? "partial" : "all_or_nothing";
      }
      const mismatch = firstMismatch(gradable(q), (response) => run(response) / max);
      if (mismatch) notes.push(describeMismatch(mismatch));
    }
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    q.points = declared > 0 ? declared : 1;
    notes.push(`Response processing not recognised (${error.message}): graded right or wrong against the correct response.`);
  }
  return finish(src, q, [...notes, ...losses]);
}

const alone = <T>(parts: T[], make: (part: T) => unknown) => (parts.length > 1 ? parts.map(make) : []);
const none = () => [];

/** Responses with some parts right and the others wrong or left out (none when the question has one part). */
const PARTLY_RIGHT: PerType<QuestionInput, unknown[]> = {
  single_choice: none,
  multiple_choice: (q) => alone(q.correct_option_ids, (id) => [id]),
  true_false: none,
  short_text: none,
  numeric: none,
  ordering: ({ correct_order: key = [] }) => (key.length > 2 ? [[...key.slice(0, -2), ...key.slice(-2).reverse()]] : []),
  matching: (q) => alone(Object.entries(q.correct_matches ?? {}), ([p, c]) => ({ [p]: c })),
  fill_in_blanks: (q) => {
    const right = Object.fromEntries(q.blanks.map((b) => [b.id, b.accepted_answers[0] ?? ""]));
    return [
      ...alone(q.blanks, (b) => ({ [b.id ?? ""]: right[b.id ?? ""] })),
      ...alone(q.blanks, (b) => ({ ...right, [b.id ?? ""]: "\u2063not an answer" })),
    ];
  },
  essay: none,
};

/** The tolerance of an `equal` in custom processing (absolute, or relative to the value), as a symmetric range. */
function toleranceOf(rp: XmlElement | undefined, value: number): { correct_value: number; tolerance: number } {
  const equal = rp ? descendants(rp, "equal").find((e) => e.attrs.toleranceMode && e.attrs.toleranceMode !== "exact") : undefined;
  if (!equal) return { correct_value: value, tolerance: 0 };
  const [t0 = 0, t1 = t0] = (equal.attrs.tolerance ?? "0").trim().split(/\s+/).map(Number);
  if (equal.attrs.toleranceMode === "absolute" && t0 === t1) return { correct_value: value, tolerance: t0 };
  const [low, high] =
    equal.attrs.toleranceMode === "relative" ? [value * (1 - t0 / 100), value * (1 + t1 / 100)] : [value - t0, value + t1];
  return { correct_value: (low + high) / 2, tolerance: Math.abs(high - low) / 2 };
}

function interactionsOf(e: XmlElement, out: XmlElement[] = []): XmlElement[] {
  for (const c of elements(e)) {
    if (c.name.endsWith("Interaction") && c.name !== "endAttemptInteraction") out.push(c);
    else if (!HIDDEN.has(c.name)) interactionsOf(c, out);
  }
  return out;
}

/**
 * Question feedback (modal feedback and feedback blocks by identifier) and per-option feedback. The
 * explanation is the block named `explanation` or `solution`, else the first whose name holds one of
 * them (not a later "SEEN-SOLUTION" or "asksolution" button); a block is rendered only where it is
 * used, so the losses named are those of the question's texts.
 */
function feedbackOf(item: XmlElement, render: Render) {
  const question: { feedback?: { correct?: string; incorrect?: string }; explanation?: string } = {};
  const options = new Map<string, XmlElement>();
  const blocks = [...elements(item, "modalFeedback"), ...descendants(child(item, "itemBody") ?? item, "feedbackBlock")];
  const fb: { correct?: string; incorrect?: string } = {};
  let explanation: XmlElement | undefined;
  for (const b of blocks) {
    const id = b.attrs.identifier ?? "";
    if (/^(incorrect|wrong|false)/i.test(id)) fb.incorrect = render.text(b.children);
    else if (/^(correct|right|true)$/i.test(id)) fb.correct = render.text(b.children);
    else if (/explanation|solution/i.test(id)) {
      const exact = /^(explanation|solution)$/i;
      if (!explanation || (exact.test(id) && !exact.test(explanation.attrs.identifier ?? ""))) explanation = b;
    } else options.set(fromQtiId(id, id), b);
  }
  for (const inline of descendants(child(item, "itemBody") ?? item, "feedbackInline")) {
    const id = fromQtiId(inline.attrs.identifier, inline.attrs.identifier ?? "");
    if (!options.has(id)) options.set(id, inline);
  }
  if (explanation) question.explanation = render.text(explanation.children);
  if (fb.correct || fb.incorrect) question.feedback = fb;
  const option = (id: string) => {
    const e = options.get(id);
    return e && render.text(e.children);
  };
  return { question, option };
}
