import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createQuiz, grade, gradeAnswers, ISO_MS, MISSING_SUB, quizAnalytics, results, submit, tf } from "./results.fixtures";

describe("POST /v1/submissions/{id}/grade", () => {
  it("→ 200 with every field of the contract", async () => {
    const quiz = await createQuiz([tf(true), tf(true), tf(true), tf(false), tf(false)], {
      feedback_bands: [
        { min_score: 0, message: "Keep practising" },
        { min_score: 50, message: "Good" },
      ],
    });
    const id = await submit(quiz.id, [
      [quiz.ids[0]!, true],
      [quiz.ids[1]!, true],
      [quiz.ids[2]!, false],
      [quiz.ids[3]!, false],
    ]);
    const res = await call(`/v1/submissions/${id}/grade`, { method: "POST" });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.json).toEqual({
      submission_id: id,
      score: 60,
      feedback: "Good",
      points_earned: 3,
      points_possible: 5,
      status: "graded",
      graded_at: expect.stringMatching(ISO_MS),
    });
    const submission = (await call(`/v1/submissions/${id}`)).json;
    expect(submission).toMatchObject({ status: "graded", score: 60, graded_at: res.json.graded_at });
  });

  it("is idempotent: a second call answers the same body, graded_at unchanged, counted once", async () => {
    const quiz = await createQuiz([tf(true), tf(false)]);
    const id = await submit(quiz.id, [[quiz.ids[0]!, true]]);
    const first = await grade(id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await grade(id);
    expect(second).toEqual(first);
    const again = await grade(id);
    expect(again).toEqual(first);
    expect((await call(`/v1/submissions/${id}`)).json.graded_at).toBe(first.graded_at);
    expect((await results(id)).graded_at).toBe(first.graded_at);
    const analytics = await quizAnalytics(quiz.id);
    expect(analytics.total_attempts).toBe(1);
    expect(analytics.questions.map((q) => q.attempts)).toEqual([1, 1]);
  });

  it("points are exact: 0.1 + 0.2 points possible is 0.3", async () => {
    const quiz = await createQuiz([tf(true, { points: 0.1 }), tf(true, { points: 0.2 })]);
    expect(
      await gradeAnswers(quiz.id, [
        [quiz.ids[0]!, true],
        [quiz.ids[1]!, true],
      ]),
    ).toMatchObject({
      points_earned: 0.3,
      points_possible: 0.3,
      score: 100,
    });
    expect(await gradeAnswers(quiz.id, [[quiz.ids[0]!, true]])).toMatchObject({
      points_earned: 0.1,
      points_possible: 0.3,
      score: 33.33,
    });
    expect(await gradeAnswers(quiz.id, [[quiz.ids[1]!, true]])).toMatchObject({
      points_earned: 0.2,
      points_possible: 0.3,
      score: 66.67,
    });
  });

  it("unanswered questions earn 0; no answers at all scores 0", async () => {
    const quiz = await createQuiz([tf(true, { points: 3 }), tf(true)]);
    expect(await gradeAnswers(quiz.id, [[quiz.ids[1]!, true]])).toMatchObject({
      points_earned: 1,
      points_possible: 4,
      score: 25,
    });
    expect(await gradeAnswers(quiz.id, [])).toMatchObject({
      points_earned: 0,
      points_possible: 4,
      score: 0,
      feedback: "0 of 4 points (0%).",
    });
  });

  it("feedback comes from the band with the highest min_score at or below the score, else states the points", async () => {
    const bands = [
      { min_score: 50, message: "Half way" },
      { min_score: 100, message: "Perfect" },
      { min_score: 80, message: "Great" },
    ];
    const quiz = await createQuiz([tf(true), tf(true), tf(true), tf(true), tf(true)], { feedback_bands: bands });
    const expected: [number, string][] = [
      [0, "0 of 5 points (0%)."],
      [40, "2 of 5 points (40%)."],
      [60, "Half way"],
      [80, "Great"],
      [100, "Perfect"],
    ];
    for (const [score, message] of expected) {
      const right = quiz.ids.slice(0, score / 20).map((id): [string, unknown] => [id, true]);
      const graded = await gradeAnswers(quiz.id, right);
      expect(graded.score).toBe(score);
      expect(graded.feedback, `score ${score}`).toBe(message);
      expect((await results(graded.submission_id)).feedback).toBe(message);
    }
  });

  it("unknown or malformed submission → 404", async () => {
    expectProblem(await call(`/v1/submissions/${MISSING_SUB}/grade`, { method: "POST" }), 404, "not_found");
    expectProblem(await call("/v1/submissions/sub_x/grade", { method: "POST" }), 404, "not_found");
  });
});
