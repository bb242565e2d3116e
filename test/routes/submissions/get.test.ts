import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createQuiz, createSubmission, createUser, grade, MISSING_QUIZ, MISSING_SUB } from "./fixtures";

describe("GET /v1/submissions/{id}", () => {
  it("→ 200, open and then graded", async () => {
    const quiz = await createQuiz();
    const created = await createSubmission(quiz.id, await createUser(), [{ question_id: quiz.questionIds[2], response: true }]);
    const open = await call(`/v1/submissions/${created.id}`);
    expect(open.status).toBe(200);
    expect(open.json).toEqual(created);
    const graded = await grade(created.id);
    const after = await call(`/v1/submissions/${created.id}`);
    expect(after.json).toEqual({
      ...created,
      status: "graded",
      score: 20,
      graded_by: "request",
      points_earned: graded.points_earned,
      points_possible: graded.points_possible,
      feedback: graded.feedback,
      updated_at: graded.graded_at,
      graded_at: graded.graded_at,
    });
  });

  it("unknown, malformed or another kind's id → 404", async () => {
    expectProblem(await call(`/v1/submissions/${MISSING_SUB}`), 404, "not_found");
    expectProblem(await call("/v1/submissions/sub_nope"), 404, "not_found");
    expectProblem(await call(`/v1/submissions/${MISSING_QUIZ}`), 404, "not_found");
    expectProblem(await call(`/v1/submissions/${MISSING_SUB.toUpperCase()}`), 404, "not_found");
  });
});
