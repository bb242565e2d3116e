import { describe, expect, it } from "vitest";
import { call, defaultKey, expectProblem } from "../../support/call";
import { expectQuizAnalyticsMatch, recomputeQuizAnalytics } from "../../support/recompute";
import { createQuiz, createUser, grade, MISSING_SUB, quizAnalytics, results, submit, tf } from "./results.fixtures";

describe("GET /v1/submissions/{id}/results", () => {
  const FIVE = [
    {
      type: "single_choice",
      prompt: "Which?",
      points: 2,
      options: [{ text: "A" }, { text: "B" }, { text: "C" }],
      correct_option_id: "b",
      feedback: { correct: "Right", incorrect: "Wrong" },
      explanation: "Because b.",
    },
    {
      type: "multiple_choice",
      prompt: "Which ones?",
      points: 3,
      options: [{ text: "A" }, { text: "B" }, { text: "C" }, { text: "D" }],
      correct_option_ids: ["c", "a"],
      scoring: "partial",
      feedback: { incorrect: "Not quite" },
    },
    { type: "true_false", prompt: "False?", correct: false },
    { type: "short_text", prompt: "Capital of Italy?", accepted_answers: ["Rome", "Roma"], feedback: { correct: "Sì" } },
    { type: "numeric", prompt: "g?", points: 1.5, correct_value: 9.81, tolerance: 0.05 },
  ];

  it("before grading → 409 not_graded", async () => {
    const quiz = await createQuiz([tf(true)]);
    const id = await submit(quiz.id, [[quiz.ids[0]!, true]]);
    expectProblem(await call(`/v1/submissions/${id}/results`), 409, "not_graded");
  });

  it("unknown or malformed submission → 404", async () => {
    expectProblem(await call(`/v1/submissions/${MISSING_SUB}/results`), 404, "not_found");
    expectProblem(await call("/v1/submissions/nope/results"), 404, "not_found");
  });

  it("shows each answer of the five types in question order, with its key", async () => {
    const quiz = await createQuiz(FIVE);
    const userId = await createUser();
    const responses: unknown[] = ["b", ["a"], true, "  rOME  ", 9.8];
    const id = await submit(quiz.id, quiz.ids.map((qid, i): [string, unknown] => [qid, responses[i]]).reverse(), userId);
    const graded = await grade(id);
    const body = await results(id);
    expect(body).toEqual({
      submission_id: id,
      quiz_id: quiz.id,
      user_id: userId,
      score: 70.59, // 6 of 8.5 points
      feedback: "6 of 8.5 points (70.59%).",
      points_earned: 6,
      points_possible: 8.5,
      status: "graded",
      graded_at: graded.graded_at,
      graded_by: "request",
      answers: [
        {
          question_id: quiz.ids[0],
          question_version: 1,
          type: "single_choice",
          response: "b",
          correct: true,
          points_earned: 2,
          points_possible: 2,
          feedback: "Right",
          explanation: "Because b.",
          correct_answer: "b",
        },
        {
          question_id: quiz.ids[1],
          question_version: 1,
          type: "multiple_choice",
          response: ["a"],
          correct: false,
          points_earned: 1.5,
          points_possible: 3,
          feedback: "Not quite",
          explanation: null,
          correct_answer: ["a", "c"],
        },
        {
          question_id: quiz.ids[2],
          question_version: 1,
          type: "true_false",
          response: true,
          correct: false,
          points_earned: 0,
          points_possible: 1,
          feedback: null,
          explanation: null,
          correct_answer: false,
        },
        {
          question_id: quiz.ids[3],
          question_version: 1,
          type: "short_text",
          response: "  rOME  ",
          correct: true,
          points_earned: 1,
          points_possible: 1,
          feedback: "Sì",
          explanation: null,
          correct_answer: ["Rome", "Roma"],
        },
        {
          question_id: quiz.ids[4],
          question_version: 1,
          type: "numeric",
          response: 9.8,
          correct: true,
          points_earned: 1.5,
          points_possible: 1.5,
          feedback: null,
          explanation: null,
          correct_answer: { value: 9.81, tolerance: 0.05 },
        },
      ],
    });
    // Results are the grade call's answer plus who graded, the owners and the answers.
    const { answers: _, quiz_id: __, user_id: ___, graded_by: ____, ...summary } = body;
    expect(summary).toEqual(graded);
  });

  it("unanswered questions → response null, not correct, 0 points", async () => {
    const quiz = await createQuiz(FIVE);
    const id = await submit(quiz.id, [[quiz.ids[2]!, false]]);
    await grade(id);
    const body = await results(id);
    expect(body).toMatchObject({ score: 11.76, points_earned: 1, points_possible: 8.5 });
    expect(body.answers.map((a) => [a.response, a.correct, a.points_earned, a.points_possible])).toEqual([
      [null, false, 0, 2],
      [null, false, 0, 3],
      [false, true, 1, 1],
      [null, false, 0, 1],
      [null, false, 0, 1.5],
    ]);
    expect(body.answers[0]!.feedback).toBe("Wrong");
  });

  it("correct_answer, and the feedback and explanation that are part of the key, only while the quiz's show_correct_answers is on", async () => {
    const quiz = await createQuiz(FIVE, { show_correct_answers: false });
    const id = await submit(quiz.id, [[quiz.ids[0]!, "b"]]);
    await grade(id);
    const hidden = await results(id);
    expect(hidden.answers).toHaveLength(5);
    for (const answer of hidden.answers) {
      expect(answer).not.toHaveProperty("correct_answer");
      expect(answer).toMatchObject({ feedback: null, explanation: null });
    }

    const patch = (show: boolean) =>
      call(`/v1/quizzes/${quiz.id}`, { method: "PATCH", body: { settings: { show_correct_answers: show } } });
    expect((await patch(true)).status).toBe(200);
    const shown = await results(id);
    expect(shown.answers.map((a) => a.correct_answer)).toEqual([
      "b",
      ["a", "c"],
      false,
      ["Rome", "Roma"],
      { value: 9.81, tolerance: 0.05 },
    ]);
    expect(shown.answers.map((a) => [a.feedback, a.explanation])).toEqual([
      ["Right", "Because b."],
      ["Not quite", null],
      [null, null],
      [null, null],
      [null, null],
    ]);
    const withoutKey = (answers: any[]) => answers.map(({ correct_answer: _, feedback: __, explanation: ___, ...a }) => a);
    expect(withoutKey(shown.answers)).toEqual(withoutKey(hidden.answers));
    // A credential that may write quizzes sees keys whatever the policy.
    expect((await patch(false)).status).toBe(200);
    const writer = await results(id, await defaultKey());
    expect(writer.answers.map((a) => a.correct_answer)).toEqual(shown.answers.map((a) => a.correct_answer));

    expect((await patch(false)).status).toBe(200);
    expect(await results(id)).toEqual(hidden);
  });

  it("editing or deleting questions after grading changes neither the results nor the quiz analytics", async () => {
    const quiz = await createQuiz([
      tf(true),
      { type: "single_choice", prompt: "Which?", options: [{ text: "A" }, { text: "B" }], correct_option_id: "a" },
      { type: "numeric", prompt: "Answer?", correct_value: 42 },
    ]);
    const [q1, q2, q3] = quiz.ids as [string, string, string];
    const gradedId = await submit(quiz.id, [
      [q1, true],
      [q2, "a"],
      [q3, 41],
    ]);
    await grade(gradedId);
    await grade(await submit(quiz.id, [[q2, "b"]]));
    const openId = await submit(quiz.id, [
      [q1, false],
      [q2, "a"],
      [q3, 42],
    ]);
    const resultsBefore = await results(gradedId);
    const analyticsBefore = await quizAnalytics(quiz.id);

    const edit = (id: string, body: unknown) => call(`/v1/quizzes/${quiz.id}/questions/${id}`, { method: "PATCH", body });
    expect((await edit(q1, { correct: false })).status).toBe(200);
    expect((await edit(q3, { correct_value: 41, points: 5 })).status).toBe(200);
    expect((await call(`/v1/quizzes/${quiz.id}/questions/${q2}`, { method: "DELETE" })).status).toBe(204);

    expect(await results(gradedId)).toEqual(resultsBefore);
    const analyticsAfter = await quizAnalytics(quiz.id);
    const byId = (qs: any[]) => [...qs].sort((a, b) => a.question_id.localeCompare(b.question_id));
    expect({ ...analyticsAfter, questions: byId(analyticsAfter.questions) }).toEqual({
      ...analyticsBefore,
      questions: byId(analyticsBefore.questions),
    });
    expectQuizAnalyticsMatch(analyticsAfter, await recomputeQuizAnalytics(quiz.id));

    // The open submission is graded against the questions as they are now: its answer to the
    // deleted question is ignored, and the edited keys and points apply.
    const graded = await grade(openId);
    expect(graded).toMatchObject({ points_earned: 1, points_possible: 6, score: 16.67 });
    const now = await results(openId);
    expect(now.answers.map((a) => [a.question_id, a.response, a.correct, a.points_earned, a.points_possible])).toEqual([
      [q1, false, true, 1, 1],
      [q3, 42, false, 0, 5],
    ]);
    const analytics = await quizAnalytics(quiz.id);
    expect(analytics.total_attempts).toBe(3);
    expectQuizAnalyticsMatch(analytics, await recomputeQuizAnalytics(quiz.id));
  });

  it("deleting a user keeps the quiz analytics and the results; the user's analytics → 404", async () => {
    const quiz = await createQuiz([tf(true), tf(false)]);
    const [userId, other] = [await createUser(), await createUser()];
    const mine = await submit(quiz.id, [[quiz.ids[0]!, true]], userId);
    await grade(mine);
    await grade(await submit(quiz.id, [[quiz.ids[1]!, false]], other));
    const before = await quizAnalytics(quiz.id);
    const resultsBefore = await results(mine);
    expect((await call(`/v1/analytics/user/${userId}`)).status).toBe(200);

    expect((await call(`/v1/users/${userId}`, { method: "DELETE" })).status).toBe(204);
    expect(await quizAnalytics(quiz.id)).toEqual(before);
    expect(before).toMatchObject({ total_attempts: 2, unique_users: 2 });
    expectProblem(await call(`/v1/analytics/user/${userId}`), 404, "not_found");
    expect(await results(mine)).toEqual(resultsBefore);
    expectQuizAnalyticsMatch(before, await recomputeQuizAnalytics(quiz.id));
  });
});
