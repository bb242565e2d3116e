import fc from "fast-check";
import type { GradableQuestion } from "../../src/domain/question-types";

/**
 * Ordering, matching and fill in the blanks: the scoring rules as properties (within 0..points, full marks exactly for
 * the key, partial credit monotone in the parts right), hand-computed examples through the API,
 * every way a definition or a response can be ungradable → 400 naming the field, and regrade
 * and item analysis over them.
 */

export const MICRO = 1_000_000;
export const ids = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));

export const orderingArb = fc
  .record({ n: fc.integer({ min: 2, max: 8 }), points: fc.integer({ min: 1, max: 20 }), partial: fc.boolean() })
  .chain(({ n, points, partial }) =>
    fc.shuffledSubarray(ids(n), { minLength: n, maxLength: n }).map(
      (order): GradableQuestion => ({
        id: "q",
        type: "ordering",
        points,
        feedback: {},
        items: ids(n).map((id) => ({ id, text: id })),
        correct_order: order,
        scoring: partial ? "partial" : "all_or_nothing",
      }),
    ),
  );

export const matchingArb = fc
  .record({
    prompts: fc.integer({ min: 1, max: 8 }),
    choices: fc.integer({ min: 1, max: 6 }),
    points: fc.integer({ min: 1, max: 20 }),
    partial: fc.boolean(),
  })
  .chain(({ prompts, choices, points, partial }) =>
    fc.array(fc.constantFrom(...ids(choices)), { minLength: prompts, maxLength: prompts }).map(
      (picks): GradableQuestion => ({
        id: "q",
        type: "matching",
        points,
        feedback: {},
        prompts: ids(prompts).map((id) => ({ id: `p${id}`, text: id })),
        choices: ids(choices).map((id) => ({ id, text: id })),
        correct_matches: Object.fromEntries(picks.map((c, i) => [`p${ids(prompts)[i]}`, c])),
        scoring: partial ? "partial" : "all_or_nothing",
      }),
    ),
  );

export const blanksArb = fc
  .record({ n: fc.integer({ min: 1, max: 8 }), points: fc.integer({ min: 1, max: 20 }), partial: fc.boolean() })
  .map(
    ({ n, points, partial }): GradableQuestion => ({
      id: "q",
      type: "fill_in_blanks",
      points,
      feedback: {},
      text: ids(n)
        .map((id) => `{{${id}}}`)
        .join(" … "),
      blanks: ids(n).map((id) => ({ id, accepted_answers: [`Answer ${id}`, `alt ${id}`], case_sensitive: false })),
      scoring: partial ? "partial" : "all_or_nothing",
    }),
  );

/** A response with exactly the parts in `right` right (by index), the others wrong. */
export function responseWith(q: GradableQuestion, right: boolean[]): unknown {
  if (q.type === "ordering") {
    const key = q.correct_order;
    // Wrong places: rotate the ids that must be wrong among themselves (a single one swaps with a right one's neighbour … kept simple: rotate).
    const wrong = key.map((_, i) => i).filter((i) => !right[i]);
    const out = [...key];
    if (wrong.length === 1) return null; // one item alone cannot be out of place in a permutation
    wrong.forEach((pos, k) => {
      out[pos] = key[wrong[(k + 1) % wrong.length]!]!;
    });
    return out;
  }
  if (q.type === "fill_in_blanks")
    return Object.fromEntries(q.blanks.map((b, i) => [b.id, right[i] ? ` ANSWER  ${b.id} ` : "wrong"]));
  if (q.type === "matching") {
    const entries = Object.entries(q.correct_matches);
    const other = (choice: string) => q.choices.find((c) => c.id !== choice)?.id;
    const response: Record<string, string> = {};
    for (const [i, [prompt, choice]] of entries.entries()) {
      if (right[i]) response[prompt] = choice;
      else {
        const wrong = other(choice);
        if (wrong === undefined) return null; // a single choice cannot be matched wrong; leave it out instead
        response[prompt] = wrong;
      }
    }
    return response;
  }
  return null;
}

export const partsOf = (q: GradableQuestion) =>
  q.type === "ordering"
    ? q.correct_order.length
    : q.type === "matching"
      ? Object.keys(q.correct_matches).length
      : q.type === "fill_in_blanks"
        ? q.blanks.length
        : 0;
