import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeQuestionPatch, questionAsInput } from "../../src/domain/question-patch";
import { QUESTION_TYPES, TYPE_FIELDS } from "../../src/domain/question-types";
import type { StoredQuestion } from "../../src/domain/questions";

const RUN = { seed: 7, numRuns: 300 } as const;

const single: StoredQuestion = {
  type: "single_choice",
  prompt: "Capital of France?",
  points: 2,
  feedback: { correct: "Yes." },
  explanation: null,
  definition: {
    options: [
      { id: "a", text: "Paris" },
      { id: "b", text: "Lyon" },
    ],
    correct_option_id: "a",
  },
};

describe("questionAsInput", () => {
  it("is the common fields and the definition's fields, as a question input", () => {
    expect(questionAsInput(single)).toEqual({
      type: "single_choice",
      prompt: "Capital of France?",
      points: 2,
      feedback: { correct: "Yes." },
      options: single.definition.options,
      correct_option_id: "a",
    });
  });

  it("leaves a null explanation out, and keeps one that is set", () => {
    expect(questionAsInput(single)).not.toHaveProperty("explanation");
    expect(questionAsInput({ ...single, explanation: "Paris is the capital." }).explanation).toBe("Paris is the capital.");
  });
});

describe("mergeQuestionPatch", () => {
  it("replaces the fields sent and keeps the others", () => {
    const merged = mergeQuestionPatch(single, { prompt: "Capital of France? (one answer)", correct_option_id: "b" });
    expect(merged).toEqual({ ...questionAsInput(single), prompt: "Capital of France? (one answer)", correct_option_id: "b" });
  });

  it("a new type keeps the common fields and drops the old type's key fields", () => {
    const merged = mergeQuestionPatch(single, { type: "true_false", correct: true });
    expect(merged).toEqual({
      type: "true_false",
      prompt: "Capital of France?",
      points: 2,
      feedback: { correct: "Yes." },
      correct: true,
    });
  });

  it("a new type keeps an old key field the patch sends again", () => {
    const merged = mergeQuestionPatch(single, { type: "multiple_choice", options: [{ text: "x" }], correct_option_ids: ["a"] });
    expect(merged.options).toEqual([{ text: "x" }]);
    expect(merged).not.toHaveProperty("correct_option_id");
  });

  it("naming the stored type again changes nothing of the definition", () => {
    expect(mergeQuestionPatch(single, { type: "single_choice" })).toEqual(questionAsInput(single));
  });

  const storedArb: fc.Arbitrary<StoredQuestion> = fc
    .record({
      type: fc.constantFrom(...QUESTION_TYPES),
      prompt: fc.string(),
      points: fc.integer({ min: 1, max: 100 }),
      feedback: fc.record({ correct: fc.string(), incorrect: fc.string() }, { requiredKeys: [] }),
      explanation: fc.option(fc.string(), { nil: null }),
    })
    .chain((common) =>
      fc
        .record(Object.fromEntries(TYPE_FIELDS[common.type].map((f) => [f, fc.jsonValue()])))
        .map((definition) => ({ ...common, definition })),
    );
  const allFields = [...new Set(["prompt", "points", "feedback", "explanation", ...Object.values(TYPE_FIELDS).flat()])];
  const patchArb = fc.record(
    { type: fc.constantFrom(...QUESTION_TYPES), ...Object.fromEntries(allFields.map((f) => [f, fc.jsonValue()])) },
    { requiredKeys: [] },
  );

  it("every field sent is in the result with the value sent", () => {
    fc.assert(
      fc.property(storedArb, patchArb, (stored, patch) => {
        const merged = mergeQuestionPatch(stored, patch);
        for (const [field, value] of Object.entries(patch)) expect(merged[field]).toEqual(value);
      }),
      RUN,
    );
  });

  it("a field not sent keeps its stored value, unless it is a key field of a type the patch changes", () => {
    fc.assert(
      fc.property(storedArb, patchArb, (stored, patch) => {
        const merged = mergeQuestionPatch(stored, patch);
        const typeChanged = patch.type !== undefined && patch.type !== stored.type;
        for (const [field, value] of Object.entries(questionAsInput(stored))) {
          if (field in patch) continue;
          if (typeChanged && TYPE_FIELDS[stored.type].includes(field)) expect(merged).not.toHaveProperty(field);
          else expect(merged[field]).toEqual(value);
        }
      }),
      RUN,
    );
  });

  it("adds no field that is neither stored nor sent, and leaves the stored question as it was", () => {
    fc.assert(
      fc.property(storedArb, patchArb, (stored, patch) => {
        const before = structuredClone(stored);
        const merged = mergeQuestionPatch(stored, patch);
        const known = new Set([...Object.keys(questionAsInput(stored)), ...Object.keys(patch)]);
        for (const field of Object.keys(merged)) expect(known.has(field)).toBe(true);
        expect(stored).toEqual(before);
      }),
      RUN,
    );
  });
});
