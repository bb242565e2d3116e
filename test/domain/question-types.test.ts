import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scoreAnswer } from "../../src/domain/grading";
import { blanksArb, MICRO, matchingArb, orderingArb, partsOf, responseWith } from "../support/question-types";

describe("ordering, matching and fill-in-the-blanks scoring (properties)", () => {
  it("scores within 0..points; full marks exactly for the key; partial credit is the share, monotone in the parts right", () => {
    fc.assert(
      fc.property(
        fc
          .oneof(orderingArb, matchingArb, blanksArb)
          .chain((q) => fc.tuple(fc.constant(q), fc.array(fc.boolean(), { minLength: partsOf(q), maxLength: partsOf(q) }))),
        ([q, right]) => {
          const possible = q.points * MICRO;
          const key =
            q.type === "ordering"
              ? q.correct_order
              : q.type === "matching"
                ? q.correct_matches
                : responseWith(q, Array(partsOf(q)).fill(true));
          const full = scoreAnswer(q, key);
          expect(full).toEqual({ correct: true, earned: possible, possible });
          const response = responseWith(q, right);
          if (response === null) return;
          const got = scoreAnswer(q, response);
          const k = right.filter(Boolean).length;
          const n = right.length;
          expect(got.earned).toBeGreaterThanOrEqual(0);
          expect(got.earned).toBeLessThanOrEqual(possible);
          expect(got.correct).toBe(k === n);
          if (k === n) expect(got.earned).toBe(possible);
          else if ("scoring" in q && q.scoring === "partial")
            expect(got.earned).toBe(Math.floor((2 * possible * k + n) / (2 * n)));
          else expect(got.earned).toBe(0);
          // One more part right never earns less.
          const i = right.indexOf(false);
          if (i >= 0) {
            const better = responseWith(
              q,
              right.map((r, j) => r || j === i),
            );
            if (better !== null) expect(scoreAnswer(q, better).earned).toBeGreaterThanOrEqual(got.earned);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
