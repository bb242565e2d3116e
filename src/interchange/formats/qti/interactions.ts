/**
 * QTI interactions → the service's question types (docs/import-export.md): choice → single or multiple choice (two
 * choices reading true/false → true_false), one text entry → short text or numeric, several text
 * entries or inline choices → fill in the blanks, gap match → fill in the blanks (approximated),
 * order → ordering, match → matching, associate → matching (approximated), extended text → essay.
 * Each builder also says how a service response reads as a QTI response, for the probes.
 */

import { fromQtiId, letterId, randomId } from "../../check";
import { treeText } from "../../content";
import type { OptionInput, QuestionInput } from "../../types";
import { elements, type XmlElement } from "../../xml";
import { blanks, gaps, itemsOf } from "./blanks";
import type { Built } from "./built";
import type { Render } from "./render";
import type { Declaration, QtiValue } from "./rp";

const INLINE = new Set(["textEntryInteraction", "inlineChoiceInteraction"]);
const promptOf = (i: XmlElement, render: Render) => {
  const p = elements(i, "prompt")[0];
  return p ? render.block(p.children) : render.html ? "" : "\n";
};
const optionText = (e: XmlElement, render: Render) =>
  render.line(e.children, (c) => (c.name === "feedbackInline" ? "" : undefined));

/** Options of a list with QTI identifiers: our ids (the source's when the API accepts them) both ways. */
function listOf(choices: XmlElement[], render: Render, fresh: (i: number) => string = letterId) {
  const toOurs = new Map<string, string>();
  const options: OptionInput[] = choices.map((c, i) => {
    const id = fromQtiId(c.attrs.identifier, fresh(i));
    toOurs.set(c.attrs.identifier ?? "", id);
    return { id, text: optionText(c, render) };
  });
  const toQti = new Map([...toOurs].map(([q, o]) => [o, q]));
  return { options, ours: (q: string) => toOurs.get(q) ?? q, qti: (o: string) => toQti.get(o) ?? o };
}

/**
 * `blanksClass`: the item body says it is a fill-in-the-blanks (class "fill-in-blanks", as the
 * service writes one), so even a single text entry is a blank rather than a short answer.
 */
export function buildQuestion(
  interactions: XmlElement[],
  declarations: Map<string, Declaration>,
  notes: string[],
  render: Render,
  blanksClass = false,
): Built | string {
  const [first] = interactions;
  if (!first) return "no interaction";
  const allInline = interactions.every((i) => INLINE.has(i.name));
  if (allInline && (interactions.length > 1 || blanksClass || first.name === "inlineChoiceInteraction"))
    return blanks(interactions, declarations, notes, render);
  if (interactions.length > 1)
    return `several interactions in one item (${[...new Set(interactions.map((i) => i.name))].join(", ")})`;
  const d = declarations.get(first.attrs.responseIdentifier ?? "");
  const hide = (e: XmlElement) => (e === first ? promptOf(first, render) : undefined);
  const single = (id: string, v: QtiValue) => new Map([[id, v]]);
  const rid = first.attrs.responseIdentifier ?? "RESPONSE";
  if (!d && first.name !== "extendedTextInteraction") return `the interaction's response "${rid}" is not declared`;
  const key = itemsOf(d?.correct ?? null);
  const mapped = (d?.mapping?.entries ?? []).filter((m) => m.value > 0).map((m) => m.key);
  switch (first.name) {
    case "extendedTextInteraction":
      return { question: { type: "essay", prompt: "" }, correct: "", toQti: (r) => single(rid, r as string), render: hide };
    case "choiceInteraction": {
      const list = listOf(elements(first, "simpleChoice"), render);
      const correct = (key.length > 0 ? key : mapped).map(list.ours);
      if (correct.length === 0) return "the choice has no correct response";
      const many = d?.cardinality === "multiple" || Number(first.attrs.maxChoices ?? 1) !== 1;
      // Read as plain text only to tell a true/false: nothing of it is lost here.
      const texts = elements(first, "simpleChoice").map((c) =>
        treeText(c.children, new Set(), (e) => (e.name === "feedbackInline" ? "" : undefined)).toLowerCase(),
      );
      if (!many && texts.length === 2 && texts.includes("true") && texts.includes("false")) {
        const trueId = list.options[texts.indexOf("true")]?.id ?? "";
        const falseId = list.options[texts.indexOf("false")]?.id ?? "";
        return {
          question: { type: "true_false", prompt: "", correct: correct[0] === trueId },
          correct: correct[0] === trueId,
          toQti: (r) => single(rid, list.qti(r ? trueId : falseId)),
          render: hide,
        };
      }
      if (!many) {
        if (correct.length > 1) notes.push("The source accepts several options; here only the first is correct.");
        const question: QuestionInput = {
          type: "single_choice",
          prompt: "",
          options: list.options,
          correct_option_id: correct[0] ?? "",
        };
        return { question, correct: correct[0], toQti: (r) => single(rid, list.qti(r as string)), render: hide };
      }
      const question: QuestionInput = {
        type: "multiple_choice",
        prompt: "",
        options: list.options,
        correct_option_ids: correct,
        scoring: d?.mapping ? "partial" : "all_or_nothing",
      };
      return {
        question,
        correct,
        toQti: (r) => single(rid, { card: "multiple", items: (r as string[]).map(list.qti) }),
        render: hide,
      };
    }
    case "orderInteraction": {
      const list = listOf(elements(first, "simpleChoice"), render, randomId);
      if (key.length === 0) return "the order has no correct response";
      const correct = key.map(list.ours);
      const question: QuestionInput = {
        type: "ordering",
        prompt: "",
        items: list.options,
        correct_order: correct,
        scoring: "all_or_nothing",
      };
      return {
        question,
        correct,
        toQti: (r) => single(rid, { card: "ordered", items: (r as string[]).map(list.qti) }),
        render: hide,
      };
    }
    case "matchInteraction":
    case "associateInteraction": {
      const associate = first.name === "associateInteraction";
      const sets = associate
        ? [elements(first, "simpleAssociableChoice")]
        : elements(first, "simpleMatchSet").map((s) => elements(s, "simpleAssociableChoice"));
      const pairs = key.map((p) => p.split(/\s+/) as [string, string]);
      if (pairs.length === 0) return "the match has no correct response";
      const sources = associate ? (sets[0] ?? []).filter((c) => pairs.some(([a]) => a === c.attrs.identifier)) : (sets[0] ?? []);
      const targets = associate ? (sets[0] ?? []).filter((c) => !sources.includes(c)) : (sets[1] ?? []);
      if (associate)
        notes.push("An associate interaction became matching: each pair's first member is a prompt, the others are its choices.");
      const prompts = listOf(sources, render);
      const choices = listOf(targets, render, randomId);
      const matches: Record<string, string> = {};
      for (const [a, b] of pairs) {
        const p = prompts.ours(a);
        if (matches[p] !== undefined) notes.push(`Prompt "${a}" has several right matches in the source; here only the first.`);
        else matches[p] = choices.ours(b);
      }
      const unmatched = prompts.options.filter((p) => matches[p.id] === undefined);
      if (unmatched.length > 0)
        notes.push(`Prompts without a right match in the source were left out: ${unmatched.map((p) => p.text).join(", ")}.`);
      const question: QuestionInput = {
        type: "matching",
        prompt: "",
        prompts: prompts.options.filter((p) => matches[p.id] !== undefined),
        choices: choices.options,
        correct_matches: matches,
        scoring: d?.mapping ? "partial" : "all_or_nothing",
      };
      const toQti = (r: unknown) =>
        single(rid, {
          card: "multiple",
          items: Object.entries(r as Record<string, string>).map(([p, c]) => `${prompts.qti(p)} ${choices.qti(c)}`),
        });
      return { question, correct: matches, toQti, render: hide };
    }
    case "textEntryInteraction": {
      if (d?.baseType === "float" || d?.baseType === "integer") {
        const value = Number(key[0] ?? mapped[0]);
        if (!Number.isFinite(value)) return "the numeric entry has no correct response";
        return {
          question: { type: "numeric", prompt: "", correct_value: value, tolerance: 0 },
          correct: value,
          toQti: (r) => single(rid, r as number),
          render: (e) => (e === first ? "_____" : undefined),
        };
      }
      const full = Math.max(0, ...(d?.mapping?.entries ?? []).map((m) => m.value));
      const accepted = [
        ...new Set([...key, ...(d?.mapping?.entries ?? []).filter((m) => m.value === full && full > 0).map((m) => m.key)]),
      ];
      if (accepted.length === 0) return "the text entry has no correct response";
      const insensitive = (d?.mapping?.entries ?? []).length > 0 && (d?.mapping?.entries ?? []).every((m) => !m.caseSensitive);
      const question: QuestionInput = {
        type: "short_text",
        prompt: "",
        accepted_answers: accepted,
        case_sensitive: !insensitive,
      };
      return {
        question,
        correct: accepted[0],
        toQti: (r) => single(rid, r === "" ? null : (r as string)),
        render: (e) => (e === first ? "_____" : undefined),
      };
    }
    case "gapMatchInteraction":
      return gaps(first, d, notes, render);
    default:
      return `an unsupported interaction (${first.name})`;
  }
}
