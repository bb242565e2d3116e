import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { addQuestion, createQuiz, MISSING_QUESTION_ID, MISSING_QUIZ_ID, single, tf } from "./fixtures";

describe("GET /v1/quizzes/{id}/questions/{question_id}", () => {
  it("→ 200", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, single());
    const res = await call(`/v1/quizzes/${quizId}/questions/${q.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(q);
  });

  it("a question of another quiz → 404", async () => {
    const quizA = await createQuiz();
    const quizB = await createQuiz();
    const q = await addQuestion(quizA, tf("A's"));
    expectProblem(await call(`/v1/quizzes/${quizB}/questions/${q.id}`), 404, "not_found");
  });

  it("unknown question or quiz → 404", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, tf("x"));
    expectProblem(await call(`/v1/quizzes/${quizId}/questions/${MISSING_QUESTION_ID}`), 404, "not_found");
    expectProblem(await call(`/v1/quizzes/${MISSING_QUIZ_ID}/questions/${q.id}`), 404, "not_found");
  });

  it("malformed question id → 404", async () => {
    const quizId = await createQuiz();
    expectProblem(await call(`/v1/quizzes/${quizId}/questions/nope`), 404, "not_found");
    expectProblem(await call(`/v1/quizzes/${quizId}/questions/${quizId}`), 404, "not_found");
  });

  it("wrong method → 405 with Allow", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, tf("x"));
    const res = await call(`/v1/quizzes/${quizId}/questions/${q.id}`, { method: "POST", body: tf("y") });
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")?.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "PATCH", "DELETE"]));
  });
});
