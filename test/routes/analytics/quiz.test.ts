import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import {
  expectQuizAnalyticsMatch,
  expectUserAnalyticsMatch,
  recomputeQuizAnalytics,
  recomputeUserAnalytics,
} from "../../support/recompute";
import { analytics, createQuiz, createUser, MISSING_QUIZ, MISSING_USER, scoreRight, take, tf, ZERO_BUCKETS } from "./fixtures";

describe("GET /v1/analytics/quiz/{id}", () => {
  it("a quiz without graded submissions → zeros, nulls and ten empty buckets", async () => {
    const quiz = await createQuiz([tf(), tf(2)]);
    const empty = {
      quiz_id: quiz.id,
      total_attempts: 0,
      unique_users: 0,
      avg_score: 0,
      min_score: null,
      max_score: null,
      stddev_score: null,
      score_distribution: ZERO_BUCKETS,
      questions: quiz.ids.map((question_id) => ({ question_id, attempts: 0, correct_count: 0, correct_rate: 0, avg_points: 0 })),
    };
    expect(await analytics("quiz", quiz.id)).toEqual(empty);
    // Open submissions do not count.
    await scoreRight(quiz, await createUser(), 2, true);
    expect(await analytics("quiz", quiz.id)).toEqual(empty);
    expectQuizAnalyticsMatch(empty, await recomputeQuizAnalytics(quiz.id));

    // Questions are listed in their quiz order, which a move changes.
    const moved = await call(`/v1/quizzes/${quiz.id}/questions/${quiz.ids[1]}`, { method: "PATCH", body: { position: 1 } });
    expect(moved.status, moved.text).toBe(200);
    expect((await analytics("quiz", quiz.id)).questions.map((q) => q.question_id)).toEqual([quiz.ids[1], quiz.ids[0]]);

    const noQuestions = await createQuiz([]);
    expect((await analytics("quiz", noQuestions.id)).questions).toEqual([]);
  });

  it("after graded submissions: the statistics, bucket edges included, equal a recomputation", async () => {
    const quiz = await createQuiz(Array.from({ length: 10 }, () => tf()));
    const [u1, u2, u3] = [await createUser(), await createUser(), await createUser()];
    const taken: [string, number][] = [
      [u1, 10],
      [u1, 9],
      [u2, 8],
      [u2, 1],
      [u3, 0],
      [u3, 10],
    ];
    for (const [user, right] of taken) await scoreRight(quiz, user, right);
    await scoreRight(quiz, u1, 5, true); // open: not counted
    const scores = taken.map(([, right]) => right * 10);
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    const stddev = Math.sqrt(scores.reduce((a, s) => a + (s - mean) ** 2, 0) / scores.length);

    const api = await analytics("quiz", quiz.id);
    expect(api).toMatchObject({ total_attempts: 6, unique_users: 3, avg_score: 63.33, min_score: 0, max_score: 100 });
    expect(api.stddev_score).toBe(Math.round(stddev * 100) / 100);
    // 10 starts [10,20); 100 is in the last bucket, [90,100].
    expect(api.score_distribution.map((b) => b.count)).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 1, 3]);
    expect(api.questions[0]).toEqual({
      question_id: quiz.ids[0],
      attempts: 6,
      correct_count: 5,
      correct_rate: 0.8333,
      avg_points: 0.833333,
    });
    expect(api.questions[9]).toMatchObject({ attempts: 6, correct_count: 2, correct_rate: 0.3333 });
    expectQuizAnalyticsMatch(api, await recomputeQuizAnalytics(quiz.id));
  });

  it("partial credit and fractional points agree with the recomputation", async () => {
    const quiz = await createQuiz([
      tf(0.3),
      {
        type: "multiple_choice",
        prompt: "Which?",
        points: 0.7,
        options: [{ text: "A" }, { text: "B" }, { text: "C" }, { text: "D" }],
        correct_option_ids: ["a", "b", "c"],
        scoring: "partial",
      },
      { type: "numeric", prompt: "n?", points: 2.25, correct_value: 1, tolerance: 0.5 },
    ]);
    const user = await createUser();
    const picks: unknown[][] = [
      [true, ["a"], 1],
      [false, ["a", "b"], 0],
      [true, ["a", "d"], 1.5],
      [true, ["a", "b", "c"], 7],
      [false, ["d"], 0.5],
    ];
    for (const pick of picks)
      await take(
        quiz.id,
        user,
        quiz.ids.map((id, i): [string, unknown] => [id, pick[i]]),
      );
    expectQuizAnalyticsMatch(await analytics("quiz", quiz.id), await recomputeQuizAnalytics(quiz.id));
    expectUserAnalyticsMatch(await analytics("user", user), await recomputeUserAnalytics(user));
  });

  it("unknown or malformed quiz → 404", async () => {
    expectProblem(await call(`/v1/analytics/quiz/${MISSING_QUIZ}`), 404, "not_found");
    expectProblem(await call("/v1/analytics/quiz/nope"), 404, "not_found");
    expectProblem(await call(`/v1/analytics/quiz/${MISSING_USER}`), 404, "not_found");
  });
});
