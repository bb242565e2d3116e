/**
 * Moodle's embedded-answer (Cloze) question → fill_in_blanks. Short answers keep their full-credit
 * answers; a drop-down becomes a typed answer (its right option's text) and a number is compared
 * as text, each named in the notes; multiple-response gaps have no equivalent and skip the question.
 */

import { letterId } from "./check";
import { htmlText, type Losses } from "./content";
import { CLOZE_MARKER, splitCloze } from "./moodle-text";
import type { BlankInput, QuestionInput } from "./types";
import { answersFromWeights, percent } from "./weights";
import { child, textOf, type XmlElement } from "./xml";

type Base = Omit<QuestionInput & { type: "essay" }, "type">;

export function readCloze(q: XmlElement, base: Base, notes: string[], losses: Losses): QuestionInput | string {
  const plain = child(q, "questiontext")?.attrs.format === "plain_text";
  const reduce = (s: string) => (plain ? s.trim() : htmlText(s, losses));
  const { text: marked, parts } = splitCloze(textOf(child(child(q, "questiontext"), "text")));
  if (parts.length === 0) return "an embedded-answer question without an embedded answer";
  const blanks: BlankInput[] = [];
  for (const [i, part] of parts.entries()) {
    const n = i + 1;
    if (!part) return `embedded answer ${n} has a type this service does not know`;
    if (part.kind === "multi") return `embedded answer ${n} takes several choices, which a blank cannot`;
    const answers = part.answers.map((a) => ({ ...a, text: reduce(a.text) }));
    let accepted: string[];
    if (part.kind === "choice") {
      const best = answers.filter((a) => a.weight >= 1 - 1e-6).map((a) => a.text);
      accepted = best;
      notes.push(`The drop-down menu of gap ${n} became a typed answer: its right option's text.`);
    } else if (part.kind === "numeric") {
      accepted = answers.filter((a) => a.weight >= 1 - 1e-6).map((a) => a.text.split(":")[0]?.trim() ?? "");
      notes.push(`The number of gap ${n} is compared as text (no tolerance, no other notation).`);
    } else {
      const r = answersFromWeights(answers.filter((a) => a.text !== "*"));
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
  const lines = reduce(marked).split("\n");
  const first = lines.findIndex((l) => /\ue010\d+\ue011/.test(l));
  const lead = lines.slice(0, first).join("\n").trim();
  const body = lines
    .slice(first)
    .join("\n")
    .replace(CLOZE_MARKER, (_, i: string) => `{{${letterId(Number(i))}}}`);
  return {
    ...base,
    prompt: lead || base.title || "Fill in the blanks.",
    type: "fill_in_blanks",
    text: body,
    blanks,
    scoring: "partial",
  };
}
