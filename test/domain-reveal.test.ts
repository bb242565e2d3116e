import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ANSWER_KEY_FIELDS, resultsRevealKeys, revealsKeys, shownDefinition, withAnswerKey } from "../src/domain/reveal";
import { SCOPES } from "../src/lib/scopes";

const RUN = { seed: 3, numRuns: 200 } as const;

describe("revealsKeys", () => {
  it("quizzes:write, or admin, sees answer keys", () => {
    expect(revealsKeys(["quizzes:write"])).toBe(true);
    expect(revealsKeys(["admin"])).toBe(true);
    expect(revealsKeys(["quizzes:read", "submissions:write"])).toBe(false);
    expect(revealsKeys([])).toBe(false);
  });

  it("for any set of scopes: exactly when it holds quizzes:write or admin", () => {
    fc.assert(
      fc.property(fc.subarray([...SCOPES]), (scopes) => {
        expect(revealsKeys(scopes)).toBe(scopes.includes("quizzes:write") || scopes.includes("admin"));
      }),
      RUN,
    );
  });
});

describe("shownDefinition", () => {
  const definition = { options: [{ id: "a", text: "A" }], correct_option_id: "a", scoring: "partial", tolerance: 0.5 };

  it("hidden: the key fields go, the rest stays", () => {
    expect(shownDefinition(definition, false)).toEqual({ options: [{ id: "a", text: "A" }], scoring: "partial", tolerance: 0.5 });
  });

  it("revealed: everything stays", () => {
    expect(shownDefinition(definition, true)).toEqual(definition);
  });

  it("for any definition: hidden drops exactly the key fields, and the definition is not changed", () => {
    const keyArb = fc.oneof(fc.constantFrom(...ANSWER_KEY_FIELDS, "options", "scoring", "case_sensitive"), fc.string());
    fc.assert(
      fc.property(fc.dictionary(keyArb, fc.jsonValue()), fc.boolean(), (input, reveal) => {
        const before = structuredClone(input);
        const shown = shownDefinition(input, reveal);
        const expected = Object.keys(input).filter((k) => reveal || !ANSWER_KEY_FIELDS.includes(k));
        expect(Object.keys(shown).sort()).toEqual(expected.sort());
        for (const k of expected) expect(shown[k]).toEqual(input[k]);
        expect(input).toEqual(before);
      }),
      RUN,
    );
  });
});

describe("results", () => {
  it("reveal keys as the policy says, and always to quizzes:write", () => {
    const facts = {
      now: "2026-11-23T10:00:00.000Z",
      gradedAttempts: 1,
      allowedAttempts: 2,
      availableUntil: null,
      deadlineAt: null,
    };
    const reader = ["submissions:read"];
    expect(resultsRevealKeys(reader, { ...facts, policy: "always" })).toBe(true);
    expect(resultsRevealKeys(reader, { ...facts, policy: "never" })).toBe(false);
    expect(resultsRevealKeys(["quizzes:write"], { ...facts, policy: "never" })).toBe(true);
    expect(resultsRevealKeys(["admin"], { ...facts, policy: "never" })).toBe(true);
    // after_last_attempt: once the graded attempts reach the allowance; never when unlimited.
    expect(resultsRevealKeys(reader, { ...facts, policy: "after_last_attempt" })).toBe(false);
    expect(resultsRevealKeys(reader, { ...facts, policy: "after_last_attempt", gradedAttempts: 2 })).toBe(true);
    expect(resultsRevealKeys(reader, { ...facts, policy: "after_last_attempt", gradedAttempts: 9, allowedAttempts: null })).toBe(
      false,
    );
    // after_due: after available_until if set, else after the deadline, else once graded.
    const due = { ...facts, policy: "after_due" as const };
    expect(resultsRevealKeys(reader, { ...due, availableUntil: "2026-11-23T10:00:00.001Z" })).toBe(false);
    expect(resultsRevealKeys(reader, { ...due, availableUntil: "2026-11-23T10:00:00.000Z" })).toBe(true);
    expect(resultsRevealKeys(reader, { ...due, deadlineAt: "2026-11-23T10:00:01.000Z" })).toBe(false);
    expect(resultsRevealKeys(reader, { ...due, deadlineAt: "2026-11-23T09:59:59.000Z" })).toBe(true);
    expect(resultsRevealKeys(reader, due)).toBe(true);
  });

  it("withAnswerKey adds correct_answer when revealed, and never computes a key it hides", () => {
    const answer = { question_id: "q", correct: false };
    expect(withAnswerKey(answer, true, () => ["a", "b"])).toEqual({ ...answer, correct_answer: ["a", "b"] });
    const hidden = withAnswerKey(answer, false, () => {
      throw new Error("computed a hidden key");
    });
    expect(hidden).toEqual(answer);
    expect(hidden).not.toHaveProperty("correct_answer");
  });

  it("a revealed key that is null or false still shows", () => {
    expect(withAnswerKey({}, true, () => false)).toEqual({ correct_answer: false });
  });
});
