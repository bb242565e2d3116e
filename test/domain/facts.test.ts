import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromMicro, MICRO_POINTS_PER_POINT, POINT_DECIMALS, toMicro } from "../../src/domain/points";
import { QUESTION_TYPES, TYPE_FIELDS } from "../../src/domain/question-types";
import { gradableQuestion } from "../../src/domain/questions";
import { bucketBounds, bucketOf, SCORE_BUCKET_COUNT } from "../../src/domain/score-distribution";
import { normalizeEmail } from "../../src/domain/users";

const RUN = { seed: 5, numRuns: 500 } as const;

describe("micro-points", () => {
  it("one point is 10^POINT_DECIMALS micro-points", () => {
    expect(MICRO_POINTS_PER_POINT).toBe(10 ** POINT_DECIMALS);
    expect(toMicro(0.000001)).toBe(1);
    expect(toMicro(0.1) + toMicro(0.2)).toBe(toMicro(0.3));
  });

  it("points with at most POINT_DECIMALS decimals go to micro-points and back unchanged", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), (micro) => {
        const points = micro / 10 ** POINT_DECIMALS;
        expect(toMicro(points)).toBe(micro);
        expect(fromMicro(toMicro(points))).toBe(points);
      }),
      RUN,
    );
  });
});

describe("score distribution", () => {
  it("ten buckets of ten; 100 counts in the last", () => {
    expect(SCORE_BUCKET_COUNT).toBe(10);
    expect([0, 9.99, 10, 89.99, 90, 100].map(bucketOf)).toEqual([0, 0, 1, 8, 9, 9]);
    expect(bucketBounds(0)).toEqual({ from: 0, to: 10 });
    expect(bucketBounds(9)).toEqual({ from: 90, to: 100 });
  });

  it("every score from 0 to 100 falls in the bucket whose bounds hold it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (hundredths) => {
        const score = hundredths / 100;
        const i = bucketOf(score);
        const { from, to } = bucketBounds(i);
        expect(i).toBeGreaterThanOrEqual(0);
        expect(i).toBeLessThan(SCORE_BUCKET_COUNT);
        expect(from).toBeLessThanOrEqual(score);
        expect(score < to || (score === 100 && i === SCORE_BUCKET_COUNT - 1)).toBe(true);
      }),
      RUN,
    );
  });
});

describe("questions", () => {
  it("every type has its key fields", () => {
    expect(Object.keys(TYPE_FIELDS).sort()).toEqual([...QUESTION_TYPES].sort());
  });

  it("a stored question reads as the grading engine's question: common fields and its definition", () => {
    const stored = {
      id: "q",
      type: "numeric" as const,
      points: 2,
      feedback: { incorrect: "No." },
      explanation: null,
      definition: { correct_value: 4, tolerance: 0.1 },
    };
    expect(gradableQuestion(stored)).toEqual({
      id: "q",
      type: "numeric",
      points: 2,
      feedback: { incorrect: "No." },
      explanation: null,
      correct_value: 4,
      tolerance: 0.1,
    });
  });
});

describe("users", () => {
  it("e-mails compare case-insensitively", () => {
    expect(normalizeEmail("Ada@Example.COM")).toBe(normalizeEmail("ada@example.com"));
  });
});
