/**
 * QTI's inline interactions as blanks: text entries and inline choices (one blank each, at its
 * place in the text) and gap match (each gap accepting its right word), with how a service
 * response reads as the QTI responses, for the probes.
 */

import { fromQtiId, letterId } from "../../check";
import type { BlankInput } from "../../types";
import { elements, textOf, type XmlElement } from "../../xml";
import type { Built } from "./built";
import type { Render } from "./render";
import type { Declaration, QtiValue } from "./rp";

export const itemsOf = (v: QtiValue | undefined): string[] =>
  v === null || v === undefined ? [] : typeof v === "object" ? v.items.map(String) : [String(v)];

/** Several text entries and inline choices: one blank each, the blank id the response's. */
export function blanks(
  interactions: XmlElement[],
  declarations: Map<string, Declaration>,
  notes: string[],
  render: Render,
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
      const text = (c: XmlElement) => render.plain(c.children);
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
export function gaps(inter: XmlElement, d: Declaration | undefined, notes: string[], render: Render): Built | string {
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
  const place = (e: XmlElement): string | undefined => {
    if (e === inter) {
      const prompt = render.text(elements(inter, "prompt")[0]?.children ?? []);
      const inner = render.text(
        e.children.filter((c) => typeof c === "string" || (c.name !== "gapText" && c.name !== "prompt")),
        place,
      );
      return render.html ? `<div>${prompt}</div><div>${inner}</div>` : `\n${prompt}\n${inner}\n`;
    }
    if (e.name === "gap") return `{{${ids.get(e.attrs.identifier ?? "")}}}`;
    return undefined;
  };
  return {
    question: { type: "fill_in_blanks", prompt: "", text: "", blanks: list, scoring: "partial" },
    correct: Object.fromEntries(list.map((b) => [b.id, b.accepted_answers[0] ?? ""])),
    toQti,
    render: place,
  };
}
