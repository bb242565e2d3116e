import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canStillAnswer } from "../../src/domain/attempts";
import { ANSWER_KEY_FIELDS, KEY_ORDERED_LISTS } from "../../src/domain/question-types";
import { resultsRevealKeys, revealsKeys, shownDefinition, withAnswerKey } from "../../src/domain/reveal";
import { SCOPES } from "../../src/lib/scopes";

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
    expect(shownDefinition(definition, false)).toEqual({ options: [{ id: "a", text: "A" }], scoring: "partial" });
  });

  it("hidden: a numeric question shows neither its value nor its tolerance", () => {
    expect(shownDefinition({ correct_value: 3.14, tolerance: 0.005 }, false)).toEqual({});
  });

  it("revealed: everything stays", () => {
    expect(shownDefinition(definition, true)).toEqual(definition);
  });

  it("hidden: an ordering's items and a matching's choices by id, other lists as stored; no option carries feedback", () => {
    const ordering = {
      items: [
        { id: "s", text: "S" },
        { id: "p", text: "P", feedback: "First!" },
        { id: "r", text: "R" },
      ],
      correct_order: ["s", "p", "r"],
    };
    expect(shownDefinition(ordering, false)).toEqual({
      items: [
        { id: "p", text: "P" },
        { id: "r", text: "R" },
        { id: "s", text: "S" },
      ],
    });
    const matching = {
      prompts: [
        { id: "b", text: "B" },
        { id: "a", text: "A" },
      ],
      choices: [
        { id: "y", text: "Y" },
        { id: "x", text: "X" },
      ],
      correct_matches: { b: "y", a: "x" },
    };
    expect(shownDefinition(matching, false)).toEqual({ prompts: matching.prompts, choices: [...matching.choices].reverse() });
    const choice = {
      options: [
        { id: "b", text: "B", feedback: "Right: B.", feedback_incorrect: "Not B." },
        { id: "a", text: "A" },
      ],
      correct_option_id: "b",
    };
    expect(shownDefinition(choice, false)).toEqual({
      options: [
        { id: "b", text: "B" },
        { id: "a", text: "A" },
      ],
    });
    expect(shownDefinition(choice, true)).toEqual(choice);
  });

  it("for any definition: hidden drops exactly the key fields and option feedback, lists items and choices by id, and changes nothing it was given", () => {
    const keyArb = fc.oneof(
      fc.constantFrom(...ANSWER_KEY_FIELDS, "options", "items", "choices", "prompts", "scoring", "case_sensitive"),
      fc.string(),
    );
    const entryArb = fc.record(
      { id: fc.string({ maxLength: 4 }), text: fc.string(), feedback: fc.string(), Feedback_X: fc.jsonValue() },
      { requiredKeys: ["id"] },
    );
    const valueArb = fc.oneof(fc.jsonValue(), fc.array(entryArb, { maxLength: 6 }));
    fc.assert(
      fc.property(fc.dictionary(keyArb, valueArb), fc.boolean(), (input, reveal) => {
        const before = structuredClone(input);
        const shown = shownDefinition(input, reveal);
        const expected = Object.keys(input).filter((k) => reveal || !ANSWER_KEY_FIELDS.includes(k));
        expect(Object.keys(shown).sort()).toEqual(expected.sort());
        for (const k of expected) {
          if (reveal || !Array.isArray(input[k])) {
            expect(shown[k]).toEqual(input[k]);
            continue;
          }
          const entries = shown[k] as unknown[];
          expect(entries).toHaveLength((input[k] as unknown[]).length);
          for (const entry of entries)
            if (typeof entry === "object" && entry !== null)
              expect(Object.keys(entry).filter((f) => /feedback/i.test(f))).toEqual([]);
          if (KEY_ORDERED_LISTS.includes(k)) {
            const shownIds = entries.map((e) => String((e as { id?: unknown })?.id ?? ""));
            expect(shownIds).toEqual([...shownIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
            // Any order of the stored entries shows the same list: the order tells nothing.
            const reversed = { ...input, [k]: [...(input[k] as unknown[])].reverse() };
            const uniqueIds = new Set(shownIds).size === shownIds.length;
            if (uniqueIds) expect(shownDefinition(reversed, false)[k]).toEqual(entries);
          }
        }
        expect(input).toEqual(before);
      }),
      RUN,
    );
  });
});

describe("results", () => {
  const facts = {
    now: "2026-11-23T10:00:00.000Z",
    gradedAttempts: 1,
    attemptsUsed: 1,
    openSubmissions: 0,
    allowedAttempts: 2,
    availableUntil: null,
    deadlineAt: null,
  };
  const reader = ["submissions:read"];

  it("reveal keys as the policy says, and always to quizzes:write", () => {
    expect(resultsRevealKeys(reader, { ...facts, policy: "always" })).toBe(true);
    expect(resultsRevealKeys(reader, { ...facts, policy: "never" })).toBe(false);
    expect(resultsRevealKeys(["quizzes:write"], { ...facts, policy: "never" })).toBe(true);
    expect(resultsRevealKeys(["admin"], { ...facts, policy: "never" })).toBe(true);
    // after_last_attempt: once the graded attempts reach the allowance; never when unlimited.
    expect(resultsRevealKeys(reader, { ...facts, policy: "after_last_attempt" })).toBe(false);
    const used = { ...facts, gradedAttempts: 2, attemptsUsed: 2 };
    expect(resultsRevealKeys(reader, { ...used, policy: "after_last_attempt" })).toBe(true);
    expect(resultsRevealKeys(reader, { ...used, policy: "after_last_attempt", gradedAttempts: 9, allowedAttempts: null })).toBe(
      false,
    );
    // after_due, attempts used: after available_until if set, else after the deadline, else once graded.
    const due = { ...used, policy: "after_due" as const };
    expect(resultsRevealKeys(reader, { ...due, availableUntil: "2026-11-23T10:00:00.001Z" })).toBe(false);
    expect(resultsRevealKeys(reader, { ...due, availableUntil: "2026-11-23T10:00:00.000Z" })).toBe(true);
    expect(resultsRevealKeys(reader, { ...due, deadlineAt: "2026-11-23T10:00:01.000Z" })).toBe(false);
    expect(resultsRevealKeys(reader, { ...due, deadlineAt: "2026-11-23T09:59:59.000Z" })).toBe(true);
    expect(resultsRevealKeys(reader, due)).toBe(true);
  });

  it("after_due and after_last_attempt reveal nothing while the user can still answer: an open submission, or another attempt allowed", () => {
    const past = { ...facts, deadlineAt: "2026-11-23T09:00:00.000Z" };
    // An attempt left (1 of 2 used), the window open: the key would answer the next attempt.
    expect(canStillAnswer(past)).toBe(true);
    expect(resultsRevealKeys(reader, { ...past, policy: "after_due" })).toBe(false);
    // Unlimited attempts and no window's end: never.
    expect(resultsRevealKeys(reader, { ...past, policy: "after_due", allowedAttempts: null })).toBe(false);
    // The window has closed: no more attempts, whatever is left.
    const closed = { ...past, availableUntil: "2026-11-23T09:30:00.000Z" };
    expect(canStillAnswer(closed)).toBe(false);
    expect(resultsRevealKeys(reader, { ...closed, policy: "after_due" })).toBe(true);
    // ... unless a submission is still open.
    expect(resultsRevealKeys(reader, { ...closed, openSubmissions: 1, policy: "after_due" })).toBe(false);
    // Every attempt used (an open one among them): not until it is closed.
    const last = { ...past, attemptsUsed: 2, gradedAttempts: 2 };
    expect(resultsRevealKeys(reader, { ...last, policy: "after_due" })).toBe(true);
    expect(resultsRevealKeys(reader, { ...last, policy: "after_last_attempt" })).toBe(true);
    expect(resultsRevealKeys(reader, { ...last, gradedAttempts: 1, openSubmissions: 1, policy: "after_due" })).toBe(false);
    // An accommodation's extra attempt raises the allowance: hidden again.
    expect(resultsRevealKeys(reader, { ...last, allowedAttempts: 3, policy: "after_last_attempt" })).toBe(false);
    expect(resultsRevealKeys(reader, { ...last, allowedAttempts: 3, policy: "after_due" })).toBe(false);
  });

  it("for any facts: after_due and after_last_attempt reveal only when the user can no longer answer", () => {
    const at = fc.integer({ min: 0, max: 4 }).map((h) => `2026-11-23T${String(8 + h).padStart(2, "0")}:00:00.000Z`);
    fc.assert(
      fc.property(
        fc.record({
          policy: fc.constantFrom("after_due" as const, "after_last_attempt" as const),
          now: at,
          gradedAttempts: fc.nat(4),
          attemptsUsed: fc.nat(5),
          openSubmissions: fc.nat(2),
          allowedAttempts: fc.option(fc.integer({ min: 1, max: 4 })),
          availableUntil: fc.option(at),
          deadlineAt: fc.option(at),
        }),
        (f) => {
          if (resultsRevealKeys(reader, f)) expect(canStillAnswer(f)).toBe(false);
        },
      ),
      RUN,
    );
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
