import { describe, expect, it } from "vitest";
import { drawableQuestion, presentQuestions, randomBelow } from "../../src/domain/attempts";
import { listIds } from "../../src/domain/question-types/ids";
import { matchingFromPairs } from "../../src/domain/question-types/matching";

/**
 * The orders a submission presents (docs/security.md, docs/api.md), as pure functions: every ordering's items
 * and matching's choices get an order of their own whatever shuffle_options says, drawn uniformly
 * (a chi-square test over many draws); ids left out of items and choices are random.
 */

const SETTINGS = { pools: [], shuffle_questions: false, shuffle_options: false };

/** Chi-square statistic of observed counts against equal expected counts. */
function chiSquare(counts: number[], total: number): number {
  const expected = total / counts.length;
  return counts.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
}

describe("presentQuestions", () => {
  const stored = [
    {
      id: "q1",
      pool: null,
      type: "ordering" as const,
      definition: { items: ["p", "q", "r", "s"].map((id) => ({ id, text: id })) },
    },
    { id: "q2", pool: null, type: "matching" as const, definition: { choices: ["x", "y"].map((id) => ({ id, text: id })) } },
    { id: "q3", pool: null, type: "single_choice" as const, definition: { options: ["a", "b"].map((id) => ({ id, text: id })) } },
    { id: "q4", pool: null, type: "true_false" as const, definition: { correct: true } },
  ];

  it("orders ordering items and matching choices always, choice options only when shuffle_options says so", () => {
    const drawable = stored.map(drawableQuestion);
    const plain = presentQuestions(drawable, SETTINGS);
    expect(plain.map((q) => "option_order" in q)).toEqual([true, true, false, false]);
    expect([...(plain[0]?.option_order ?? [])].sort()).toEqual(["p", "q", "r", "s"]);
    expect([...(plain[1]?.option_order ?? [])].sort()).toEqual(["x", "y"]);
    const shuffled = presentQuestions(drawable, { ...SETTINGS, shuffle_options: true });
    expect(shuffled.map((q) => "option_order" in q)).toEqual([true, true, true, false]);
  });

  it("draws each of the 24 orders of 4 items equally often (chi-square, 23 degrees of freedom, p < 1e-6 to fail)", () => {
    const DRAWS = 24_000;
    const drawable = [drawableQuestion(stored[0]!)];
    const counts = new Map<string, number>();
    for (let i = 0; i < DRAWS; i++) {
      const order = presentQuestions(drawable, SETTINGS)[0]?.option_order?.join() ?? "";
      counts.set(order, (counts.get(order) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    // Chi-square with 23 degrees of freedom exceeds 70.55 with probability 1e-6.
    expect(chiSquare([...counts.values()], DRAWS)).toBeLessThan(70.55);
  });

  it("randomBelow is uniform, including for n that do not divide 2^32", () => {
    const DRAWS = 30_000;
    // n, and the value chi-square with n − 1 degrees of freedom exceeds with probability 1e-6.
    for (const [n, bound] of [
      [3, 27.63],
      [7, 38.26],
      [26, 73.89],
    ] as const) {
      const counts = Array<number>(n).fill(0);
      for (let i = 0; i < DRAWS; i++) {
        const k = randomBelow(n);
        expect(Number.isInteger(k) && k >= 0 && k < n).toBe(true);
        counts[k] = (counts[k] ?? 0) + 1;
      }
      expect(chiSquare(counts, DRAWS)).toBeLessThan(bound);
    }
  });
});

describe("ids left out", () => {
  it("are a, b, … by position in other lists; random in items and choices: 8 of [a-z0-9], unlike any given id", () => {
    expect(listIds([{}, { id: "x" }, {}], false)).toEqual(["a", "x", "c"]);
    const ids = listIds([{ id: "given" }, ...Array.from({ length: 25 }, () => ({}))], true);
    expect(ids[0]).toBe("given");
    for (const id of ids.slice(1)) expect(id).toMatch(/^[a-z0-9]{8}$/);
    expect(new Set(ids).size).toBe(26);
    // Every character of the alphabet turns up, none favoured by position.
    const characters = new Set(
      Array.from({ length: 200 }, () => listIds([{}], true)[0])
        .join("")
        .split(""),
    );
    expect(characters.size).toBe(36);
  });

  it("pairs become prompts a, b, …, one random-id choice per distinct text, and matches between them", () => {
    const { prompts, choices, correct_matches } = matchingFromPairs(
      [
        { prompt: "Vienna", choice: "Austria" },
        { prompt: "Graz", choice: "Austria" },
        { prompt: "Bern", choice: "Switzerland" },
      ],
      ["France"],
    );
    expect(prompts.map((p) => p.id)).toEqual(["a", "b", "c"]);
    expect(choices.map((c) => c.text)).toEqual(["Austria", "Switzerland", "France"]);
    const [austria, switzerland] = choices.map((c) => c.id);
    expect(correct_matches).toEqual({ a: austria, b: austria, c: switzerland });
  });
});
