import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../../support/call";
import { expectItemAnalysisMatch, referenceItemAnalysis } from "../../support/item-analysis-reference";
import {
  expectQuizAnalyticsMatch,
  expectUserAnalyticsMatch,
  recomputeQuizAnalytics,
  recomputeUserAnalytics,
} from "../../support/recompute";

/**
 * Essays and their review: grading leaves a submission with an answered essay needing review
 * (provisional score, counted nowhere, submission.needs_review); the last essay's review grades
 * it — counted once, submission.graded — even when the last two are reviewed at once; a review
 * after that moves the aggregates like a regrade; a regrade keeps the reviews.
 */

const QUESTIONS = [
  { type: "true_false", prompt: "True?", correct: true },
  { type: "essay", prompt: "Explain.", points: 10, rubric: "Depth (6), clarity (4).", max_words: 50 },
  { type: "essay", prompt: "Summarise.", points: 5 },
];

async function essayQuiz() {
  const quiz = await call("/v1/quizzes", { body: { title: "Essays", questions: QUESTIONS } });
  expect(quiz.status, quiz.text).toBe(201);
  return { quizId: quiz.json.id as string, ids: quiz.json.question_ids as string[] };
}

async function submitted(quizId: string, ids: string[], essays: (string | null)[] = ["An answer.", "Another."]) {
  const user = await call("/v1/users", { body: { name: "E", email: `${crypto.randomUUID()}@example.com` } });
  const answers = [
    { question_id: ids[0], response: true },
    ...essays.flatMap((text, i) => (text === null ? [] : [{ question_id: ids[i + 1], response: text }])),
  ];
  const sub = await call(`/v1/quizzes/${quizId}/submissions`, { body: { user_id: user.json.id, answers } });
  expect(sub.status, sub.text).toBe(201);
  return { userId: user.json.id as string, submissionId: sub.json.id as string };
}

const eventsOf = async (type: string, submissionId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM events WHERE type = ? AND json_extract(data, '$.object.id') = ?")
    .bind(type, submissionId)
    .first<{ n: number }>())!.n;

const review = (submissionId: string, questionId: string, body: unknown) =>
  call(`/v1/submissions/${submissionId}/reviews/${questionId}`, { method: "PUT", body });

async function expectExact(quizId: string, userIds: string[]) {
  expectQuizAnalyticsMatch((await call(`/v1/analytics/quiz/${quizId}`)).json, await recomputeQuizAnalytics(quizId));
  for (const user of userIds)
    expectUserAnalyticsMatch((await call(`/v1/analytics/user/${user}`)).json, await recomputeUserAnalytics(user));
  for (const attempts of ["all", "first"] as const)
    expectItemAnalysisMatch(
      (await call(`/v1/analytics/quiz/${quizId}/items?attempts=${attempts}`)).json,
      await referenceItemAnalysis(quizId, attempts),
    );
}

describe("essays and reviews", () => {
  it("grading leaves it needing review, counted nowhere; the last review grades it, counted once", async () => {
    const { quizId, ids } = await essayQuiz();
    const { userId, submissionId } = await submitted(quizId, ids);
    const graded = await call(`/v1/submissions/${submissionId}/grade`, { method: "POST" });
    expect(graded.json).toMatchObject({
      status: "needs_review",
      points_earned: 1,
      points_possible: 16,
      score: 6.25,
      graded_at: null,
    });
    // A second grade call answers the same.
    expect((await call(`/v1/submissions/${submissionId}/grade`, { method: "POST" })).json).toEqual(graded.json);
    expect(await eventsOf("submission.needs_review", submissionId)).toBe(1);
    expect(await eventsOf("submission.graded", submissionId)).toBe(0);
    expect((await call(`/v1/analytics/quiz/${quizId}`)).json.total_attempts).toBe(0);
    const queue = await call(`/v1/quizzes/${quizId}/submissions?status=needs_review`);
    expect(queue.json.submissions.map((s: { id: string }) => s.id)).toEqual([submissionId]);
    const provisional = (await call(`/v1/submissions/${submissionId}/results`)).json;
    expect(provisional.answers.map((a) => a.points_earned)).toEqual([1, null, null]);

    const first = await review(submissionId, ids[1]!, { points: 7.5, feedback: "Good depth." });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ status: "needs_review", points_earned: 8.5 });
    expect((await call(`/v1/analytics/quiz/${quizId}`)).json.total_attempts).toBe(0);

    const last = await review(submissionId, ids[2]!, { points: 5 });
    expect(last.json).toMatchObject({ status: "graded", points_earned: 13.5, points_possible: 16, score: 84.38 });
    expect(last.json.graded_at).toEqual(expect.any(String));
    expect(await eventsOf("submission.graded", submissionId)).toBe(1);
    const results = (await call(`/v1/submissions/${submissionId}/results`)).json;
    expect(results.answers.map((a) => [a.points_earned, a.correct, a.feedback])).toEqual([
      [1, true, null],
      [7.5, false, "Good depth."],
      [5, true, null],
    ]);
    expect((await call(`/v1/analytics/quiz/${quizId}`)).json).toMatchObject({ total_attempts: 1, avg_score: 84.38 });
    await expectExact(quizId, [userId]);
  });

  it("the last two essays reviewed at once: graded and counted exactly once (20 trials)", async () => {
    const { quizId, ids } = await essayQuiz();
    const users: string[] = [];
    for (let trial = 0; trial < 20; trial++) {
      const { userId, submissionId } = await submitted(quizId, ids);
      users.push(userId);
      await call(`/v1/submissions/${submissionId}/grade`, { method: "POST" });
      const answers = await Promise.all([
        review(submissionId, ids[1]!, { points: trial % 11 }),
        review(submissionId, ids[2]!, { points: trial % 6 }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers.some((a) => a.json.status === "graded")).toBe(true);
      expect(await eventsOf("submission.graded", submissionId)).toBe(1);
    }
    expect((await call(`/v1/analytics/quiz/${quizId}`)).json.total_attempts).toBe(20);
    await expectExact(quizId, users);
  }, 60_000);

  it("a review after grading moves the aggregates like a regrade; a regrade keeps the reviews", async () => {
    const { quizId, ids } = await essayQuiz();
    const { userId, submissionId } = await submitted(quizId, ids);
    await call(`/v1/submissions/${submissionId}/grade`, { method: "POST" });
    await review(submissionId, ids[1]!, { points: 4 });
    await review(submissionId, ids[2]!, { points: 5 });
    const again = await review(submissionId, ids[1]!, { points: 10, feedback: "On second reading, excellent." });
    expect(again.json).toMatchObject({ status: "graded", points_earned: 16, score: 100 });
    expect(await eventsOf("submission.regraded", submissionId)).toBe(1);
    expect(await eventsOf("submission.graded", submissionId)).toBe(1);
    await expectExact(quizId, [userId]);

    // The key of the true/false question flips; a regrade moves it and leaves the essays as reviewed.
    await call(`/v1/quizzes/${quizId}/questions/${ids[0]}`, { method: "PATCH", body: { correct: false } });
    const job = await call(`/v1/quizzes/${quizId}/regrade`, { body: { dry_run: false } });
    for (let i = 0; (await call(`/v1/jobs/${job.json.id}`)).json.status !== "succeeded"; i++) {
      if (i > 600) throw new Error("the regrade did not finish");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const results = (await call(`/v1/submissions/${submissionId}/results`)).json;
    expect(results.answers.map((a) => a.points_earned)).toEqual([0, 10, 5]);
    expect(results.score).toBe(93.75);
    await expectExact(quizId, [userId]);
  });

  it("an essay turned into a keyed question and regraded: the submission no longer waits for review, graded and counted once", async () => {
    const { quizId, ids } = await essayQuiz();
    const { userId, submissionId } = await submitted(quizId, ids, ["Paris", null]);
    expect((await call(`/v1/submissions/${submissionId}/grade`, { method: "POST" })).json.status).toBe("needs_review");
    const changed = await call(`/v1/quizzes/${quizId}/questions/${ids[1]}`, {
      method: "PATCH",
      body: { type: "short_text", accepted_answers: ["Paris"] },
    });
    expect(changed.status, changed.text).toBe(200);
    const job = await call(`/v1/quizzes/${quizId}/regrade`, { body: { dry_run: false } });
    for (let i = 0; (await call(`/v1/jobs/${job.json.id}`)).json.status !== "succeeded"; i++) {
      if (i > 600) throw new Error("the regrade did not finish");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const sub = (await call(`/v1/submissions/${submissionId}`)).json;
    expect(sub).toMatchObject({ status: "graded", points_earned: 11 });
    expect(sub.graded_at).not.toBeNull();
    expect((await call(`/v1/quizzes/${quizId}/submissions?status=needs_review`)).json.submissions).toEqual([]);
    expect(await eventsOf("submission.graded", submissionId)).toBe(1);
    await expectExact(quizId, [userId]);
    // A second identical regrade changes nothing and counts it no second time.
    const again = await call(`/v1/quizzes/${quizId}/regrade`, { body: { dry_run: false } });
    for (let i = 0; (await call(`/v1/jobs/${again.json.id}`)).json.status !== "succeeded"; i++) {
      if (i > 600) throw new Error("the regrade did not finish");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await eventsOf("submission.graded", submissionId)).toBe(1);
    await expectExact(quizId, [userId]);
  });

  it("an unanswered essay needs no review: the submission is graded at once", async () => {
    const { quizId, ids } = await essayQuiz();
    const { submissionId } = await submitted(quizId, ids, [null, "   "]);
    const graded = await call(`/v1/submissions/${submissionId}/grade`, { method: "POST" });
    expect(graded.json).toMatchObject({ status: "graded", points_earned: 1 });
    expectProblem(await review(submissionId, ids[1]!, { points: 1 }), 409, "nothing_to_review");
  });

  it("marking needs reviews:write: a submissions:write key (a learner-facing backend) cannot mark its own essays or re-mark", async () => {
    const { quizId, ids } = await essayQuiz();
    const { submissionId } = await submitted(quizId, ids);
    const learnerBackend = (await seedApiKey(["submissions:write", "submissions:read"])).key;
    const marker = (await seedApiKey(["reviews:write"])).key;
    expect((await call(`/v1/submissions/${submissionId}/grade`, { method: "POST", auth: learnerBackend })).status).toBe(200);
    const mark = (auth: string, points: number) =>
      call(`/v1/submissions/${submissionId}/reviews/${ids[1]}`, { method: "PUT", body: { points }, auth });
    const refused = await mark(learnerBackend, 10);
    expectProblem(refused, 403, "insufficient_scope");
    expect(refused.headers.get("www-authenticate")).toContain('scope="reviews:write"');
    expect((await mark(marker, 4)).status).toBe(200);
    expect(
      (await call(`/v1/submissions/${submissionId}/reviews/${ids[2]}`, { method: "PUT", body: { points: 5 }, auth: marker }))
        .json,
    ).toMatchObject({ status: "graded", points_earned: 10 });
    // Re-marking a graded submission is refused too, and changed nothing.
    expectProblem(await mark(learnerBackend, 10), 403, "insufficient_scope");
    expect((await call(`/v1/submissions/${submissionId}`)).json.points_earned).toBe(10);
  });

  it("refusals: an open submission 409, another type 400, too many points 400, an unpresented question 404, too many words 400", async () => {
    const { quizId, ids } = await essayQuiz();
    const { submissionId } = await submitted(quizId, ids);
    expectProblem(await review(submissionId, ids[1]!, { points: 1 }), 409, "not_graded");
    await call(`/v1/submissions/${submissionId}/grade`, { method: "POST" });
    expectProblem(await review(submissionId, ids[0]!, { points: 1 }), 400, "validation_failed");
    expectProblem(await review(submissionId, ids[1]!, { points: 10.5 }), 400, "validation_failed");
    expectProblem(await review(submissionId, ids[1]!, { points: -1 }), 400, "validation_failed");
    expectProblem(await review(submissionId, "qst_00000000000000000000000000", { points: 1 }), 404);
    const user = await call("/v1/users", { body: { name: "W", email: `${crypto.randomUUID()}@example.com` } });
    const wordy = await call(`/v1/quizzes/${quizId}/submissions`, {
      body: { user_id: user.json.id, answers: [{ question_id: ids[1], response: "word ".repeat(51) }] },
    });
    expectProblem(wordy, 400, "validation_failed");
  });

  it("reviews racing a regrade stay exact", async () => {
    const { quizId, ids } = await essayQuiz();
    const users: string[] = [];
    const subs: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { userId, submissionId } = await submitted(quizId, ids);
      users.push(userId);
      subs.push(submissionId);
      await call(`/v1/submissions/${submissionId}/grade`, { method: "POST" });
      await review(submissionId, ids[2]!, { points: i % 6 });
    }
    await call(`/v1/quizzes/${quizId}/questions/${ids[0]}`, { method: "PATCH", body: { correct: false } });
    const job = await call(`/v1/quizzes/${quizId}/regrade`, { body: { dry_run: false } });
    // Every submission's first essay reviewed while the regrade runs: each becomes graded once.
    const reviews = await Promise.all(subs.map((id, i) => review(id, ids[1]!, { points: i })));
    expect(reviews.map((r) => r.status)).toEqual(subs.map(() => 200));
    for (let i = 0; (await call(`/v1/jobs/${job.json.id}`)).json.status !== "succeeded"; i++) {
      if (i > 600) throw new Error("the regrade did not finish");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const id of subs) expect(await eventsOf("submission.graded", id)).toBe(1);
    // Whatever the order, every stored answer is under the new key and every figure matches.
    const results = await Promise.all(subs.map(async (id) => (await call(`/v1/submissions/${id}/results`)).json));
    expect(results.map((r) => r.answers[0]!.points_earned)).toEqual(subs.map(() => 0));
    expect(results.map((r) => r.status)).toEqual(subs.map(() => "graded"));
    await expectExact(quizId, users);
  });
});
