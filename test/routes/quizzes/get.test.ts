import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createQuiz, MISSING_QUIZ, tf } from "./fixtures";

describe("GET /v1/quizzes/{id}", () => {
  it("→ 200 with the question count", async () => {
    const quiz = await createQuiz({ description: "About", questions: [tf(), tf()] });
    const res = await call(`/v1/quizzes/${quiz.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ...quiz, questions: 2 });
  });

  it("the count follows questions added and deleted later", async () => {
    const quiz = await createQuiz();
    const added = await call(`/v1/quizzes/${quiz.id}/questions`, { body: tf() });
    expect(added.status, added.text).toBe(201);
    expect((await call(`/v1/quizzes/${quiz.id}`)).json.questions).toBe(1);
    await call(`/v1/quizzes/${quiz.id}/questions/${added.json.id}`, { method: "DELETE" });
    expect((await call(`/v1/quizzes/${quiz.id}`)).json.questions).toBe(0);
  });

  it("unknown id → 404", async () => {
    expectProblem(await call(MISSING_QUIZ), 404, "not_found");
  });

  it("malformed id → 404", async () => {
    expectProblem(await call("/v1/quizzes/quiz_123"), 404, "not_found");
  });

  it("wrong method → 405 with Allow", async () => {
    const quiz = await createQuiz();
    const res = await call(`/v1/quizzes/${quiz.id}`, { method: "PUT", body: { title: "x" } });
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")?.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "PATCH", "DELETE"]));
    expect(res.headers.get("allow")).not.toContain("PUT");
  });
});
