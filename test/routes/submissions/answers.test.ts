import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import {
  createQuiz,
  createSubmission,
  createUser,
  errorPaths,
  grade,
  ISO_MS,
  MISSING_QUESTION,
  MISSING_SUB,
  MISSING_USER,
  stamped,
  withoutQuestionViews,
} from "./fixtures";

describe("PUT /v1/submissions/{id}/answers", () => {
  const put = (id: string, body: unknown, auth?: string) => call(`/v1/submissions/${id}/answers`, { method: "PUT", body, auth });

  it("replaces the answers while the submission is open", async () => {
    const quiz = await createQuiz();
    const created = await createSubmission(quiz.id, await createUser(), [{ question_id: quiz.questionIds[0], response: "a" }]);
    const answers = [
      { question_id: quiz.questionIds[3], response: "Rome" },
      { question_id: quiz.questionIds[0], response: "b" },
    ];
    const res = await put(created.id, { answers });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      ...created,
      answers: stamped(answers, res.json.updated_at),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(res.json.updated_at >= created.updated_at).toBe(true);
    expect(withoutQuestionViews((await call(`/v1/submissions/${created.id}`)).json)).toEqual(res.json);
    // An empty list clears them.
    const cleared = await put(created.id, { answers: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.json.answers).toEqual([]);
  });

  it("after grading → 409 submission_graded, and the answers stay", async () => {
    const quiz = await createQuiz();
    const answers = [{ question_id: quiz.questionIds[2], response: false }];
    const created = await createSubmission(quiz.id, await createUser(), answers);
    await grade(created.id);
    expectProblem(
      await put(created.id, { answers: [{ question_id: quiz.questionIds[2], response: true }] }),
      409,
      "submission_graded",
    );
    const got = await call(`/v1/submissions/${created.id}`);
    expect(got.json.answers).toEqual(stamped(answers, created.created_at));
    expect(got.json.status).toBe("graded");
  });

  it("invalid answers → 400 and nothing changes", async () => {
    const quiz = await createQuiz();
    const other = await createQuiz();
    const created = await createSubmission(quiz.id, await createUser(), [{ question_id: quiz.questionIds[4], response: 3 }]);
    const cases: [unknown, string][] = [
      [{ answers: [{ question_id: quiz.questionIds[4], response: "3.14" }] }, "answers[0].response"],
      [{ answers: [{ question_id: MISSING_QUESTION, response: 1 }] }, "answers[0].question_id"],
      [{ answers: [{ question_id: other.questionIds[4], response: 1 }] }, "answers[0].question_id"],
      [
        {
          answers: [
            { question_id: quiz.questionIds[4], response: 1 },
            { question_id: quiz.questionIds[4], response: 2 },
          ],
        },
        "answers[1].question_id",
      ],
      [{ answers: [{ question_id: quiz.questionIds[1], response: "a" }] }, "answers[0].response"],
      [{ answers: [], user_id: MISSING_USER }, "user_id"],
      [{}, "answers"],
    ];
    for (const [body, path] of cases) expect(errorPaths(await put(created.id, body)), JSON.stringify(body)).toEqual([path]);
    expect(withoutQuestionViews((await call(`/v1/submissions/${created.id}`)).json)).toEqual(created);
  });

  it("unknown or malformed submission → 404", async () => {
    expectProblem(await put(MISSING_SUB, { answers: [] }), 404, "not_found");
    expectProblem(await put("sub_nope", { answers: [] }), 404, "not_found");
  });
});
