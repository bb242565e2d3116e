import { expect } from "vitest";
import type { ImportedItem, ImportResult, QuestionInput, QuizQuestion } from "../../src/interchange";
import { gradable, serviceShare } from "../../src/interchange/formats/qti/probe";

/** The item whose source id is `id`. */
export function item(result: ImportResult, id: string): ImportedItem {
  const found = result.items.find((i) => i.entry.source_id === id);
  if (!found) throw new Error(`no item ${id} in ${result.items.map((i) => i.entry.source_id).join(", ")}`);
  return found;
}

/** The question of an item that was not skipped. */
export function question<T extends QuestionInput["type"]>(i: ImportedItem, type: T): Extract<QuestionInput, { type: T }> {
  expect(i.entry.type).toBe(type);
  expect(i.question?.type).toBe(type);
  return i.question as Extract<QuestionInput, { type: T }>;
}

/** The source's correct response earns full points and a wrong one less, under the service's grading. */
export function gradesLikeTheSource(q: QuestionInput, right: unknown, wrong: unknown) {
  const g = gradable(q);
  expect(serviceShare(g, right)).toBe(1);
  expect(serviceShare(g, wrong)).toBeLessThan(1);
}

export const share = (q: QuestionInput, response: unknown) => serviceShare(gradable(q), response);

type Listed = { id: string; text: string }[];
/** The read question's id for each id of `original`'s list: by text (unique in the arbitraries). */
const byText = (a: Listed, b: Listed) => new Map(a.map((o) => [o.id, b.find((x) => x.text === o.text)?.id ?? o.id]));

/** A response to the original as the same response to the read question (its ids may differ). */
export function translate(original: QuizQuestion, read: QuestionInput, response: unknown): unknown {
  const map = (ids: Map<string, string>, id: string) => ids.get(id) ?? id;
  if (original.type === "matching" && read.type === "matching") {
    const prompts = byText(original.prompts, read.prompts as Listed);
    const choices = byText(original.choices, read.choices as Listed);
    return Object.fromEntries(Object.entries(response as object).map(([p, c]) => [map(prompts, p), map(choices, c)]));
  }
  if (original.type === "fill_in_blanks" && read.type === "fill_in_blanks") {
    const blanks = new Map(original.blanks.map((b, i) => [b.id, read.blanks[i]?.id ?? b.id]));
    return Object.fromEntries(Object.entries(response as object).map(([b, t]) => [map(blanks, b), t]));
  }
  const list = (q: object): Listed | undefined =>
    "options" in q ? (q.options as Listed) : "items" in q ? (q.items as Listed) : undefined;
  const [a, b] = [list(original), list(read)];
  if (!a || !b) return response;
  const ids = byText(a, b);
  return typeof response === "string" ? map(ids, response) : (response as string[]).map((id) => map(ids, id));
}
