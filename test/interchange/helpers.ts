import { expect } from "vitest";
import type { ImportedItem, ImportResult, QuestionInput } from "../../src/interchange";
import { gradable, serviceShare } from "../../src/interchange/qti-probe";

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
