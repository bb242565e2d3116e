import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GRADING_POLICIES } from "../../src/domain/quiz-settings";
import { call } from "../support/call";

/**
 * The kept grade, as GET /v1/quizzes/{id}/grades answers it from the row the grading batch keeps,
 * equals a from-scratch computation over the user's graded submissions — for random settings,
 * random attempt histories (scores, the order attempts are graded in, attempts left open) and
 * every grading policy, switched after the fact.
 */

const QUESTIONS = 4;
const TF = Array.from({ length: QUESTIONS }, (_, i) => ({ type: "true_false", prompt: `Statement ${i + 1}?`, correct: true }));

interface Attempt {
  /** Right answers of 4: the score is 25 × right. */
  right: number;
  graded: boolean;
}

const history = fc.record({
  policy: fc.constantFrom(...GRADING_POLICIES),
  /** Extra room above the attempts made, or unlimited. */
  headroom: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
  users: fc.array(
    fc.record({
      attempts: fc.array(fc.record({ right: fc.integer({ min: 0, max: QUESTIONS }), graded: fc.boolean() }), {
        minLength: 1,
        maxLength: 5,
      }),
      /** The order the graded attempts are graded in: a permutation seed. */
      order: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});

/** The kept score, from scratch: integer hundredths of a percent, the average rounded half up. */
function expectedKept(attempts: (Attempt & { number: number })[], policy: string): number {
  const graded = attempts.filter((a) => a.graded).map((a) => ({ number: a.number, cents: a.right * 2500 }));
  const byNumber = [...graded].sort((x, y) => x.number - y.number);
  switch (policy) {
    case "first":
      return byNumber[0]!.cents / 100;
    case "latest":
      return byNumber.at(-1)!.cents / 100;
    case "highest":
      return Math.max(...graded.map((g) => g.cents)) / 100;
    default: {
      const sum = graded.reduce((s, g) => s + g.cents, 0);
      const n = graded.length;
      return Math.floor((2 * sum + n) / (2 * n)) / 100;
    }
  }
}

describe("kept grades", () => {
  it("equal a from-scratch computation over the submissions, under every policy", async () => {
    await fc.assert(
      fc.asyncProperty(history, async ({ policy, headroom, users }) => {
        const most = Math.max(...users.map((u) => u.attempts.length));
        const quizRes = await call("/v1/quizzes", {
          body: {
            title: "Kept grades",
            questions: TF,
            settings: { grading_policy: policy, max_attempts: headroom === null ? null : most + headroom },
          },
        });
        expect(quizRes.status, quizRes.text).toBe(201);
        const quizId = quizRes.json.id as string;
        const questionIds = quizRes.json.question_ids as string[];
        const expected = new Map<string, (Attempt & { number: number })[]>();
        for (const user of users) {
          const userRes = await call("/v1/users", { body: { name: "Prop", email: `${crypto.randomUUID()}@example.com` } });
          const userId = userRes.json.id as string;
          const made = [];
          for (const [i, attempt] of user.attempts.entries()) {
            const answers = questionIds.map((question_id, q) => ({ question_id, response: q < attempt.right }));
            const sub = await call(`/v1/quizzes/${quizId}/submissions`, { body: { user_id: userId, answers } });
            expect(sub.status, sub.text).toBe(201);
            expect(sub.json.attempt).toBe(i + 1);
            made.push({ id: sub.json.id as string, ...attempt, number: i + 1 });
          }
          // Grade in a random order.
          const toGrade = made.filter((m) => m.graded);
          const ordered = toGrade
            .map((m, i) => ({ m, key: user.order[i] ?? 0 }))
            .sort((x, y) => x.key - y.key)
            .map((x) => x.m);
          for (const m of ordered) {
            const graded = await call(`/v1/submissions/${m.id}/grade`, { method: "POST" });
            expect(graded.status, graded.text).toBe(200);
            expect(graded.json.score).toBe(m.right * 25);
          }
          if (toGrade.length > 0) expected.set(userId, made);
        }
        for (const shown of [policy, ...GRADING_POLICIES.filter((p) => p !== policy)]) {
          if (shown !== policy) {
            const patched = await call(`/v1/quizzes/${quizId}`, {
              method: "PATCH",
              body: { settings: { grading_policy: shown } },
            });
            expect(patched.status, patched.text).toBe(200);
          }
          const list = await call(`/v1/quizzes/${quizId}/grades?limit=100`);
          expect(list.status, list.text).toBe(200);
          const want = [...expected.entries()]
            .map(([userId, attempts]) => ({
              quiz_id: quizId,
              user_id: userId,
              attempts: attempts.filter((a) => a.graded).length,
              kept_score: expectedKept(attempts, shown),
              policy: shown,
            }))
            .sort((x, y) => (x.user_id < y.user_id ? -1 : 1));
          expect(list.json.grades).toEqual(want);
        }
      }),
      { numRuns: 12, seed: 1414 },
    );
  }, 180_000);
});
