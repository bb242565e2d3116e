/**
 * Moodle's embedded-answer (Cloze) question → fill_in_blanks. Short answers keep their full-credit
 * answers; a drop-down becomes a typed answer (its right option's text) and a number is compared
 * as text, each named in the notes; multiple-response gaps have no equivalent and skip the question.
 */

import { letterId } from "../../check";
import { htmlText, type Losses } from "../../content";
import { readShortAnswer, WILDCARD_NOTE } from "../../shortanswer";
import type { BlankInput, QuestionInput } from "../../types";
import { answersFromWeights, percent } from "../../weights";
import { child, decodeEntities, textOf, type XmlElement, type XmlNode } from "../../xml";
import { CLOZE_MARKER, restoreCloze, splitCloze } from "./text";

type Base = Omit<QuestionInput & { type: "essay" }, "type">;

/**
 * The question text's nodes before and after the first empty CDATA section: the writer's mark of
 * where the prompt ends (Moodle reads it as nothing), so that the fill-in text's own lines stay
 * apart from the prompt's. Without one, the text before the first gap's line is the prompt.
 */
function promptEnd(text: XmlElement | undefined): [string, string] | undefined {
  const at = text?.children.indexOf("") ?? -1;
  if (!text || at < 0) return undefined;
  const of = (nodes: XmlNode[]) => textOf({ ...text, children: nodes });
  return [of(text.children.slice(0, at)), of(text.children.slice(at + 1))];
}

export function readCloze(q: XmlElement, base: Base, notes: string[], losses: Losses): QuestionInput | string {
  const plain = child(q, "questiontext")?.attrs.format === "plain_text";
  const reduce = (s: string) => (plain ? s.trim() : htmlText(s, losses));
  // Moodle decodes the entities of every answer, whatever the text's format.
  const decode = (s: string) => (plain ? decodeEntities(s) : htmlText(s, losses));
  const element = child(child(q, "questiontext"), "text");
  const marked = promptEnd(element);
  const split = marked && splitCloze(marked[0], decode).parts.length === 0 ? marked : undefined;
  const { text: withMarkers, parts } = splitCloze(split ? split[1] : textOf(element), decode);
  if (parts.length === 0) return "an embedded-answer question without an embedded answer";
  const blanks: BlankInput[] = [];
  for (const [i, part] of parts.entries()) {
    const n = i + 1;
    if (!part) return `embedded answer ${n} has a type this service does not know`;
    if (part.kind === "multi") return `embedded answer ${n} takes several choices, which a blank cannot`;
    const answers = part.answers;
    let accepted: string[];
    if (part.kind === "choice") {
      const best = answers.filter((a) => a.weight >= 1 - 1e-6).map((a) => a.text);
      accepted = best;
      notes.push(`The drop-down menu of gap ${n} became a typed answer: its right option's text.`);
    } else if (part.kind === "numeric") {
      accepted = answers.filter((a) => a.weight >= 1 - 1e-6).map((a) => a.text.split(":")[0]?.trim() ?? "");
      notes.push(`The number of gap ${n} is compared as text (no tolerance, no other notation).`);
    } else {
      const read = answers.filter((a) => a.text !== "*").map((a) => ({ ...readShortAnswer(a.text), weight: a.weight }));
      if (read.some((a) => a.wildcard && a.weight >= 1 - 1e-6)) notes.push(`Gap ${n}: ${WILDCARD_NOTE}`);
      const r = answersFromWeights(read);
      accepted = r.accepted;
      notes.push(...r.notes.map((note) => `Gap ${n}: ${note}`));
    }
    if (accepted.length === 0) return `embedded answer ${n} has no full-credit answer`;
    if (answers.some((a) => a.feedback !== "")) notes.push(`The per-answer feedback of gap ${n} was dropped.`);
    blanks.push({ id: letterId(i), accepted_answers: accepted, case_sensitive: part.kind === "short_case" });
  }
  const weights = parts.map((p) => p?.weight ?? 1);
  if (weights.some((w) => w !== weights[0]))
    notes.push(`Gap weights ${weights.join(", ")} became equal shares (${percent(1 / weights.length)} each).`);
  const lines = reduce(withMarkers).split("\n");
  const first = split ? 0 : lines.findIndex((l) => /\ue010\d+\ue011/.test(l));
  const lead = split ? reduce(split[0]) : restoreCloze(lines.slice(0, first).join("\n").trim());
  const body = restoreCloze(
    lines
      .slice(first)
      .join("\n")
      .replace(CLOZE_MARKER, (_, i: string) => `{{${letterId(Number(i))}}}`),
  );
  return {
    ...base,
    prompt: lead || base.title || "Fill in the blanks.",
    type: "fill_in_blanks",
    text: body,
    blanks,
    scoring: "partial",
  };
}
