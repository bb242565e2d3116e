import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import {
  createQuiz,
  createSubmission,
  createUser,
  errorPaths,
  FIVE_TYPES,
  grade,
  ISO_MS,
  MISSING_QUESTION,
  MISSING_QUIZ,
  MISSING_USER,
  SUB_ID,
  stamped,
  submit,
  VALID,
  WRONG_TYPE,
} from "./fixtures";

describe("POST /v1/quizzes/{id}/submissions", () => {
  it("→ 201 with Location, an open submission numbered attempt 1", async () => {
    const quiz = await createQuiz();
    const userId = await createUser();
    const answers = [{ question_id: quiz.questionIds[0], response: "b" }];
    const res = await submit(quiz.id, { user_id: userId, answers });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(SUB_ID),
      quiz_id: quiz.id,
      user_id: userId,
      attempt: 1,
      status: "open",
      answers: stamped(answers, res.json.created_at),
      score: null,
      deadline_at: null,
      graded_by: null,
      questions: quiz.questionIds.map((question_id, i) => ({ question_id, position: i + 1 })),
      points_earned: null,
      points_possible: null,
      feedback: null,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: res.json.created_at,
      graded_at: null,
    });
    expect(res.headers.get("location")).toBe(`/v1/submissions/${res.json.id}`);
    const got = await call(res.headers.get("location") as `/v1/submissions/${string}`);
    expect(got.status).toBe(200);
    // The read is the answer, each presented question with its question added.
    expect(got.json).toEqual({
      ...res.json,
      questions: res.json.questions!.map((p) => ({ ...p, question: expect.objectContaining({ prompt: expect.any(String) }) })),
    });
  });

  it("answers are optional and default to none", async () => {
    const quiz = await createQuiz();
    const res = await submit(quiz.id, { user_id: await createUser() });
    expect(res.status, res.text).toBe(201);
    expect(res.json.answers).toEqual([]);
  });

  it("accepts a valid response to each of the five types", async () => {
    const quiz = await createQuiz();
    const answers = quiz.questionIds.map((question_id, i) => ({ question_id, response: VALID[i] }));
    const created = await createSubmission(quiz.id, await createUser(), answers);
    expect(created.answers).toEqual(stamped(answers, created.created_at));
  });

  it("numbers attempts per user and quiz: 1, 2, 3; another user or quiz starts at 1", async () => {
    const quiz = await createQuiz();
    const other = await createQuiz();
    const [alice, bob] = [await createUser(), await createUser()];
    const attempts = [];
    for (let i = 0; i < 3; i++) attempts.push((await createSubmission(quiz.id, alice)).attempt);
    expect(attempts).toEqual([1, 2, 3]);
    expect((await createSubmission(quiz.id, bob)).attempt).toBe(1);
    expect((await createSubmission(other.id, alice)).attempt).toBe(1);
    // Grading does not change the numbering: graded attempts are attempts too.
    const fourth = await createSubmission(quiz.id, alice);
    await grade(fourth.id);
    expect((await createSubmission(quiz.id, alice)).attempt).toBe(5);
  });

  it("unknown, malformed or missing user → 400 naming user_id", async () => {
    const quiz = await createQuiz();
    expect(errorPaths(await submit(quiz.id, { user_id: MISSING_USER }))).toEqual(["user_id"]);
    expect(errorPaths(await submit(quiz.id, { user_id: "user_nope" }))).toEqual(["user_id"]);
    expect(errorPaths(await submit(quiz.id, { user_id: MISSING_QUIZ }))).toEqual(["user_id"]);
    expect(errorPaths(await submit(quiz.id, {}))).toEqual(["user_id"]);
  });

  it("a deleted user → 400 naming user_id", async () => {
    const quiz = await createQuiz();
    const userId = await createUser();
    expect((await call(`/v1/users/${userId}`, { method: "DELETE" })).status).toBe(204);
    expect(errorPaths(await submit(quiz.id, { user_id: userId }))).toEqual(["user_id"]);
  });

  it("an unknown question id → 400 naming answers[i].question_id", async () => {
    const quiz = await createQuiz();
    const answers = [
      { question_id: quiz.questionIds[0], response: "b" },
      { question_id: MISSING_QUESTION, response: "b" },
    ];
    expect(errorPaths(await submit(quiz.id, { user_id: await createUser(), answers }))).toEqual(["answers[1].question_id"]);
    const malformed = [{ question_id: "q1", response: "b" }];
    expect(errorPaths(await submit(quiz.id, { user_id: await createUser(), answers: malformed }))).toEqual([
      "answers[0].question_id",
    ]);
  });

  it("a question of another quiz → 400 naming answers[i].question_id", async () => {
    const quiz = await createQuiz();
    const other = await createQuiz();
    const answers = [{ question_id: other.questionIds[0], response: "b" }];
    expect(errorPaths(await submit(quiz.id, { user_id: await createUser(), answers }))).toEqual(["answers[0].question_id"]);
  });

  it("a response of the wrong type, for each of the five types → 400 naming answers[i].response", async () => {
    const quiz = await createQuiz();
    const userId = await createUser();
    for (const [i, questionId] of quiz.questionIds.entries()) {
      // A valid answer to another question first, so the index in the path is checked too.
      const other = (i + 1) % quiz.questionIds.length;
      for (const response of WRONG_TYPE[i]!) {
        const answers = [
          { question_id: quiz.questionIds[other], response: VALID[other] },
          { question_id: questionId, response },
        ];
        const res = await submit(quiz.id, { user_id: userId, answers });
        expect(errorPaths(res), `${FIVE_TYPES[i]!.type} ← ${JSON.stringify(response)}`).toEqual(["answers[1].response"]);
      }
    }
    // A missing response is no response of the question's type either.
    const res = await submit(quiz.id, { user_id: userId, answers: [{ question_id: quiz.questionIds[2] }] });
    expect(errorPaths(res)).toEqual(["answers[0].response"]);
    // Nothing was created by any of them.
    expect((await call(`/v1/quizzes/${quiz.id}/submissions`)).json.submissions).toEqual([]);
  });

  it("the same question answered twice → 400 naming the second answer", async () => {
    const quiz = await createQuiz();
    const answers = [
      { question_id: quiz.questionIds[2], response: true },
      { question_id: quiz.questionIds[0], response: "a" },
      { question_id: quiz.questionIds[2], response: false },
    ];
    expect(errorPaths(await submit(quiz.id, { user_id: await createUser(), answers }))).toEqual(["answers[2].question_id"]);
  });

  it("an unknown field, at the top or in an answer → 400 naming it", async () => {
    const quiz = await createQuiz();
    const userId = await createUser();
    expect(errorPaths(await submit(quiz.id, { user_id: userId, status: "graded" }))).toEqual(["status"]);
    const answers = [{ question_id: quiz.questionIds[2], response: true, correct: true }];
    expect(errorPaths(await submit(quiz.id, { user_id: userId, answers }))).toEqual(["answers[0].correct"]);
    expect(errorPaths(await submit(quiz.id, { user_id: userId, answers: "all" }))).toEqual(["answers"]);
  });

  it("unknown or malformed quiz → 404", async () => {
    const userId = await createUser();
    expectProblem(await submit(MISSING_QUIZ, { user_id: userId }), 404, "not_found");
    expectProblem(await submit("quiz_nope", { user_id: userId }), 404, "not_found");
    expectProblem(await submit(MISSING_USER, { user_id: userId }), 404, "not_found");
  });

  it("max_attempts is enforced → 409 attempt_limit_reached, per user", async () => {
    const quiz = await createQuiz({ max_attempts: 2 });
    const [alice, bob] = [await createUser(), await createUser()];
    const first = await createSubmission(quiz.id, alice);
    await grade(first.id);
    await createSubmission(quiz.id, alice);
    expectProblem(await submit(quiz.id, { user_id: alice }), 409, "attempt_limit_reached");
    expect((await createSubmission(quiz.id, bob)).attempt).toBe(1);
    const listed = await call(`/v1/users/${alice}/submissions`);
    expect(listed.json.submissions.map((s) => s.attempt)).toEqual([1, 2]);
  });

  it("concurrent submissions racing for the last attempt: exactly one 201", async () => {
    const quiz = await createQuiz({ max_attempts: 2 });
    for (let round = 0; round < 4; round++) {
      const userId = await createUser();
      await createSubmission(quiz.id, userId);
      const racers = round % 2 === 0 ? 2 : 6;
      const results = await Promise.all(Array.from({ length: racers }, () => submit(quiz.id, { user_id: userId })));
      const won = results.filter((r) => r.status === 201);
      expect(won, results.map((r) => r.status).join(",")).toHaveLength(1);
      expect(won[0]!.json.attempt).toBe(2);
      for (const lost of results.filter((r) => r.status !== 201)) expectProblem(lost, 409, "attempt_limit_reached");
      const listed = await call(`/v1/users/${userId}/submissions`);
      expect(listed.json.submissions).toHaveLength(2);
    }
  });
});
