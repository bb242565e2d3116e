import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { expectItemAnalysisMatch, referenceItemAnalysis } from "../../support/item-analysis-reference";
import { answersFor, ITEM_QUESTIONS } from "../../support/item-fixtures";

/**
 * GET /v1/analytics/quiz/{id}/items answers from sums kept at grade time; every figure equals a
 * from-scratch computation over the graded submissions (test/item-analysis-reference.ts) to 4
 * decimal places: random responses, attempts graded out of order (so "first" changes hands),
 * attempts left open, quizzes whose pools present each submission different questions, and
 * after a regrade under each policy.
 */

const dataSet = fc.record({
  pooled: fc.boolean(),
  users: fc.array(
    fc.array(fc.record({ picks: fc.array(fc.nat(), { minLength: 10, maxLength: 10 }), graded: fc.boolean() }), {
      minLength: 1,
      maxLength: 3,
    }),
    { minLength: 1, maxLength: 6 },
  ),
  order: fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
  /** Then the single choice's key moves to "c" and the quiz is regraded under this policy. */
  regrade: fc.constantFrom("current_key", "full_credit", "higher_of"),
});

async function itemQuiz(pooled: boolean) {
  const questions = pooled ? [...ITEM_QUESTIONS, ...ITEM_QUESTIONS.map((q) => ({ ...q, pool: "extra" }))] : ITEM_QUESTIONS;
  const res = await call("/v1/quizzes", {
    body: { title: "Items", questions, settings: pooled ? { pools: [{ pool: "extra", pick: 2 }] } : {} },
  });
  expect(res.status, res.text).toBe(201);
  return { quizId: res.json.id as string, questionIds: res.json.question_ids as string[] };
}

async function expectMatchesReference(quizId: string) {
  for (const attempts of ["all", "first"] as const) {
    const res = await call(`/v1/analytics/quiz/${quizId}/items?attempts=${attempts}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ quiz_id: quizId, attempts });
    expectItemAnalysisMatch(res.json, await referenceItemAnalysis(quizId, attempts));
  }
}

describe("item analysis", () => {
  it("equals a from-scratch computation on random data sets, for every graded submission and for each user's first", async () => {
    await fc.assert(
      fc.asyncProperty(dataSet, async ({ pooled, users, order, regrade }) => {
        const { quizId, questionIds } = await itemQuiz(pooled);
        const toGrade: string[] = [];
        for (const attempts of users) {
          const user = await call("/v1/users", { body: { name: "Item", email: `${crypto.randomUUID()}@example.com` } });
          for (const attempt of attempts) {
            const sub = await call(`/v1/quizzes/${quizId}/submissions`, { body: { user_id: user.json.id, answers: [] } });
            expect(sub.status, sub.text).toBe(201);
            const presented = (sub.json.questions as { question_id: string }[] | null)?.map((q) => q.question_id) ?? questionIds;
            const put = await call(`/v1/submissions/${sub.json.id}/answers`, {
              method: "PUT",
              body: { answers: answersFor(presented, attempt.picks, questionIds) },
            });
            expect(put.status, put.text).toBe(200);
            if (attempt.graded) toGrade.push(sub.json.id as string);
          }
        }
        // Graded in a random order: later attempts before earlier ones now and then.
        const shuffled = toGrade
          .map((id, i) => ({ id, key: order[i % order.length]! * 100 + i }))
          .sort((a, b) => a.key - b.key)
          .map((e) => e.id);
        for (const id of shuffled) {
          const res = await call(`/v1/submissions/${id}/grade`, { method: "POST" });
          expect(res.status, res.text).toBe(200);
        }
        await expectMatchesReference(quizId);

        // After a regrade, the sums it moved still equal a computation over the regraded rows.
        const patched = await call(`/v1/quizzes/${quizId}/questions/${questionIds[1]}`, {
          method: "PATCH",
          body: { correct_option_id: "c" },
        });
        expect(patched.status, patched.text).toBe(200);
        const job = await call(`/v1/quizzes/${quizId}/regrade`, { body: { dry_run: false, policy: regrade } });
        expect(job.status, job.text).toBe(202);
        for (let i = 0; (await call(`/v1/jobs/${job.json.id}`)).json.status !== "succeeded"; i++) {
          if (i > 600) throw new Error("the regrade did not finish");
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await expectMatchesReference(quizId);
      }),
      { numRuns: 20, endOnFailure: true },
    );
  }, 120_000);

  it("a quiz without graded submissions: n 0, every figure null, options counted 0", async () => {
    const { quizId, questionIds } = await itemQuiz(false);
    const res = await call(`/v1/analytics/quiz/${quizId}/items`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ attempts: "all", n: 0, mean_points: null, stddev_points: null, reliability: null });
    expect(res.json.items.map((i) => i.question_id)).toEqual(questionIds);
    const none = { count: 0, share: null, mean_total: null, point_biserial: null };
    expect(res.json.items[1]!.options).toEqual([
      { option_id: "a", ...none },
      { option_id: "b", ...none },
      { option_id: "c", ...none },
    ]);
    for (const item of res.json.items) expect(item.flags).toEqual([]);
    expect(res.json.items[0]).not.toHaveProperty("options");
  });

  it("right/wrong items: reliability is KR-20, hand-computed", async () => {
    const quiz = await call("/v1/quizzes", {
      body: {
        title: "KR-20",
        questions: Array.from({ length: 3 }, (_, i) => ({ type: "true_false", prompt: `S${i}?`, correct: true })),
      },
    });
    const ids = quiz.json.question_ids as string[];
    // Right answers per submission: [1,1,1], [1,1,0], [1,0,0], [0,0,0].
    for (const right of [3, 2, 1, 0]) {
      const user = await call("/v1/users", { body: { name: "K", email: `${crypto.randomUUID()}@example.com` } });
      const answers = ids.map((question_id, q) => ({ question_id, response: q < right }));
      const sub = await call(`/v1/quizzes/${quiz.json.id}/submissions`, { body: { user_id: user.json.id, answers } });
      await call(`/v1/submissions/${sub.json.id}/grade`, { method: "POST" });
    }
    const res = await call(`/v1/analytics/quiz/${quiz.json.id}/items`);
    // p = 3/4, 2/4, 1/4; Σpq = 3/16 + 4/16 + 3/16 = 10/16; totals 3,2,1,0: variance 5/4.
    // KR-20 = 3/2 · (1 − (10/16) / (5/4)) = 3/2 · 1/2 = 0.75.
    expect(res.json.reliability).toBeCloseTo(0.75, 6);
    expect(res.json.mean_points).toBe(1.5);
    expect(res.json.items.map((i) => i.difficulty)).toEqual([0.75, 0.5, 0.25]);
  });

  it("attempts other than all or first, or another parameter: 400; an unknown quiz: 404", async () => {
    const { quizId } = await itemQuiz(false);
    expectProblem(await call(`/v1/analytics/quiz/${quizId}/items?attempts=last`), 400);
    expectProblem(await call(`/v1/analytics/quiz/${quizId}/items?mode=all`), 400);
    expectProblem(await call("/v1/analytics/quiz/quiz_00000000000000000000000000/items"), 404);
  });
});
