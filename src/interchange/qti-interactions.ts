/**
 * QTI interactions → the service's question types (§13): choice → single or multiple choice (two
 * choices reading true/false → true_false), one text entry → short text or numeric, several text
 * entries or inline choices → fill in the blanks, gap match → fill in the blanks (approximated),
 * order → ordering, match → matching, associate → matching (approximated), extended text → essay.
 * Each builder also says how a service response reads as a QTI response, for the probes.
 */

import { fromQtiId, letterId, randomId } from "./check";
import { type Losses, treeText } from "./content";
import type { Declaration, QtiValue } from "./qti-rp";
import type { BlankInput, OptionInput, QuestionInput } from "./types";
import { elements, textOf, type XmlElement } from "./xml";

export interface Built {
  question: QuestionInput;
  /** The service response that is the key. */
  correct: unknown;
  toQti(response: unknown): Map<string, QtiValue>;
  /** An interaction's place in the question text; undefined for other elements. */
  render(e: XmlElement): string | undefined;
}

const INLINE = new Set(["textEntryInteraction", "inlineChoiceInteraction"]);
const promptOf = (i: XmlElement, losses: Losses) => {
  const p = elements(i, "prompt")[0];
  return p ? `\n${treeText(p.children, losses)}\n` : "\n";
};
const itemsOf = (v: QtiValue | undefined): string[] =>
  v === null || v === undefined ? [] : typeof v === "object" ? v.items.map(String) : [String(v)];
const optionText = (e: XmlElement, losses: Losses) =>
  treeText(e.children, losses, (c) => (c.name === "feedbackInline" ? "" : undefined)).replace(/\s*\n\s*/g, " ");

/** Options of a list with QTI identifiers: our ids (the source's when the API accepts them) both ways. */
function listOf(choices: XmlElement[], losses: Losses, fresh: (i: number) => string = letterId) {
  const toOurs = new Map<string, string>();
  const options: OptionInput[] = choices.map((c, i) => {
    const id = fromQtiId(c.attrs.identifier, fresh(i));
    toOurs.set(c.attrs.identifier ?? "", id);
    return { id, text: optionText(c, losses) };
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
  losses: Losses,
  blanksClass = false,
): Built | string {
  const [first] = interactions;
  if (!first) return "no interaction";
  const allInline = interactions.every((i) => INLINE.has(i.name));
  if (allInline && (interactions.length > 1 || blanksClass || first.name === "inlineChoiceInteraction"))
    return blanks(interactions, declarations, notes, losses);
  if (interactions.length > 1)
    return `several interactions in one item (${[...new Set(interactions.map((i) => i.name))].join(", ")})`;
  const d = declarations.get(first.attrs.responseIdentifier ?? "");
  const hide = (e: XmlElement) => (e === first ? promptOf(first, losses) : undefined);
  const single = (id: string, v: QtiValue) => new Map([[id, v]]);
  const rid = first.attrs.responseIdentifier ?? "RESPONSE";
  if (!d && first.name !== "extendedTextInteraction") return `the interaction's response "${rid}" is not declared`;
  const key = itemsOf(d?.correct ?? null);
  const mapped = (d?.mapping?.entries ?? []).filter((m) => m.value > 0).map((m) => m.key);
  switch (first.name) {
    case "extendedTextInteraction":
      return { question: { type: "essay", prompt: "" }, correct: "", toQti: (r) => single(rid, r as string), render: hide };
    case "choiceInteraction": {
      const list = listOf(elements(first, "simpleChoice"), losses);
      const correct = (key.length > 0 ? key : mapped).map(list.ours);
      if (correct.length === 0) return "the choice has no correct response";
      const many = d?.cardinality === "multiple" || Number(first.attrs.maxChoices ?? 1) !== 1;
      const texts = list.options.map((o) => o.text.toLowerCase());
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
      const list = listOf(elements(first, "simpleChoice"), losses, randomId);
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
      const prompts = listOf(sources, losses);
      const choices = listOf(targets, losses, randomId);
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
      return gaps(first, d, notes, losses);
    default:
      return `an unsupported interaction (${first.name})`;
  }
}

/** Several text entries and inline choices: one blank each, the blank id the response's. */
function blanks(
  interactions: XmlElement[],
  declarations: Map<string, Declaration>,
  notes: string[],
  losses: Losses,
): Built | string {
  const list: BlankInput[] = [];
  const byInteraction = new Map<XmlElement, string>();
  const readers = new Map<string, (text: string) => QtiValue>();
  for (const [i, inter] of interactions.entries()) {
    const rid = inter.attrs.responseIdentifier ?? "";
    const d = declarations.get(rid);
    if (!d) return `the response "${rid}" is not declared`;
    const id = fromQtiId(rid, letterId(i));
    byInteraction.set(inter, id);
    let accepted: string[];
    if (inter.name === "inlineChoiceInteraction") {
      const choices = elements(inter, "inlineChoice");
      const text = (c: XmlElement) => treeText(c.children, losses);
      accepted = choices.filter((c) => itemsOf(d.correct).includes(c.attrs.identifier ?? "")).map(text);
      notes.push(`The inline choice "${rid}" became a blank accepting its right option's text.`);
      readers.set(
        rid,
        (t) => choices.find((c) => text(c).toLowerCase() === t.trim().toLowerCase())?.attrs.identifier ?? "\u2063none",
      );
    } else {
      const full = Math.max(0, ...(d.mapping?.entries ?? []).map((m) => m.value));
      accepted = [
        ...new Set([
          ...itemsOf(d.correct),
          ...(d.mapping?.entries ?? []).filter((m) => full > 0 && m.value === full).map((m) => m.key),
        ]),
      ];
      if (d.baseType === "float" || d.baseType === "integer") notes.push(`The number of "${rid}" is compared as text.`);
      readers.set(rid, (t) => (t === "" ? null : d.baseType === "float" || d.baseType === "integer" ? Number(t) : t));
    }
    if (accepted.length === 0) return `the blank "${rid}" has no correct response`;
    const sensitive = !(d.mapping?.entries.length && d.mapping.entries.every((m) => !m.caseSensitive));
    list.push({ id, accepted_answers: accepted, case_sensitive: inter.name === "inlineChoiceInteraction" ? false : sensitive });
  }
  const correct = Object.fromEntries(list.map((b) => [b.id, b.accepted_answers[0] ?? ""]));
  const toQti = (r: unknown) => {
    const given = r as Record<string, string>;
    return new Map(
      interactions.map((inter) => {
        const rid = inter.attrs.responseIdentifier ?? "";
        const text = given[byInteraction.get(inter) ?? ""];
        return [rid, text === undefined ? null : (readers.get(rid)?.(text) ?? null)] as const;
      }),
    );
  };
  return {
    question: { type: "fill_in_blanks", prompt: "", text: "", blanks: list, scoring: "partial" },
    correct,
    toQti,
    render: (e) => (byInteraction.has(e) ? `{{${byInteraction.get(e)}}}` : undefined),
  };
}

/** Gap match: each gap a blank accepting the text of the word that belongs there. */
function gaps(inter: XmlElement, d: Declaration | undefined, notes: string[], losses: Losses): Built | string {
  if (!d) return "the gap match's response is not declared";
  const words = elements(inter, "gapText");
  const wordText = (id: string) => textOf(words.find((w) => w.attrs.identifier === id)).trim();
  const gapIds: string[] = [];
  const collect = (e: XmlElement) => {
    for (const c of elements(e)) c.name === "gap" ? gapIds.push(c.attrs.identifier ?? "") : collect(c);
  };
  collect(inter);
  const pairs = itemsOf(d.correct).map((p) => p.split(/\s+/));
  const ids = new Map(gapIds.map((g, i) => [g, fromQtiId(g, letterId(i))]));
  const list: BlankInput[] = gapIds.map((g) => ({
    id: ids.get(g) ?? g,
    accepted_answers: pairs.filter(([, gap]) => gap === g).map(([w]) => wordText(w ?? "")),
    case_sensitive: false,
  }));
  if (list.some((b) => b.accepted_answers.length === 0)) return "a gap has no correct word";
  notes.push("The word bank of the gap match became typed answers: each gap accepts its right word's text.");
  const toQti = (r: unknown) => {
    const given = r as Record<string, string>;
    const items = gapIds.flatMap((g) => {
      const word = words.find((w) => textOf(w).trim().toLowerCase() === given[ids.get(g) ?? ""]?.trim().toLowerCase());
      return word ? [`${word.attrs.identifier} ${g}`] : [];
    });
    return new Map([[inter.attrs.responseIdentifier ?? "RESPONSE", { card: "multiple" as const, items }]]);
  };
  const render = (e: XmlElement): string | undefined => {
    if (e === inter)
      return `\n${treeText(elements(inter, "prompt")[0]?.children ?? [], losses)}\n${treeText(
        e.children.filter((c) => typeof c === "string" || (c.name !== "gapText" && c.name !== "prompt")),
        losses,
        render,
      )}\n`;
    if (e.name === "gap") return `{{${ids.get(e.attrs.identifier ?? "")}}}`;
    return undefined;
  };
  return {
    question: { type: "fill_in_blanks", prompt: "", text: "", blanks: list, scoring: "partial" },
    correct: Object.fromEntries(list.map((b) => [b.id, b.accepted_answers[0] ?? ""])),
    toQti,
    render,
  };
}
