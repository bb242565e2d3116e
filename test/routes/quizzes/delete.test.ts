import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { countRows, createQuiz, MISSING_QUIZ, tf } from "./fixtures";

describe("DELETE /v1/quizzes/{id}", () => {
  it("→ 204, then GET → 404, and its questions are gone", async () => {
    const quiz = await createQuiz({ questions: [tf(), tf()] });
    const res = await call(`/v1/quizzes/${quiz.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expectProblem(await call(`/v1/quizzes/${quiz.id}`), 404, "not_found");
    expectProblem(await call(`/v1/quizzes/${quiz.id}/questions`), 404, "not_found");
    expect(await countRows("SELECT count(*) AS n FROM questions WHERE quiz_id = ?", quiz.id)).toBe(0);
  });

  it("a second delete → 404", async () => {
    const quiz = await createQuiz();
    expect((await call(`/v1/quizzes/${quiz.id}`, { method: "DELETE" })).status).toBe(204);
    expectProblem(await call(`/v1/quizzes/${quiz.id}`, { method: "DELETE" }), 404, "not_found");
  });

  it("unknown id → 404", async () => {
    expectProblem(await call(MISSING_QUIZ, { method: "DELETE" }), 404, "not_found");
  });

  it("a quiz with submissions → 409, and it stays", async () => {
    const quiz = await createQuiz({ questions: [tf()] });
    const user = await call("/v1/users", { body: { name: "Taker", email: `taker-${crypto.randomUUID()}@example.com` } });
    expect(user.status, user.text).toBe(201);
    // Written straight to D1: this file tests quizzes, not the submissions endpoints.
    const now = new Date().toISOString();
    await env.DB.prepare(
      "INSERT INTO submissions (id, quiz_id, user_id, attempt, status, answers, created_at, updated_at) VALUES (?, ?, ?, 1, 'open', '[]', ?, ?)",
    )
      .bind("sub_01kamz3f7c9n0p8s6e5vwx2y4r", quiz.id, user.json.id, now, now)
      .run();
    expectProblem(await call(`/v1/quizzes/${quiz.id}`, { method: "DELETE" }), 409);
    expect((await call(`/v1/quizzes/${quiz.id}`)).status).toBe(200);
  });
});
