import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { MISSING_QUIZ, newQuiz, newUser, path, put, readOnlyKey, useReadOnlyKey } from "./fixtures";

useReadOnlyKey();

describe("DELETE /v1/quizzes/{id}/accommodations/{user_id}", () => {
  it("→ 204, then 404; the list no longer has it", async () => {
    const [quiz, user] = await Promise.all([newQuiz(), newUser()]);
    expect((await put(quiz, user, { extra_time_seconds: 60 })).status).toBe(200);
    const res = await call(path(quiz, user), { method: "DELETE" });
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe("");
    expectProblem(await call(path(quiz, user), { method: "DELETE" }), 404, "not_found");
    expect((await call(path(quiz))).json.accommodations).toEqual([]);
  });

  it("none there, or an unknown quiz → 404", async () => {
    const [quiz, user] = await Promise.all([newQuiz(), newUser()]);
    expectProblem(await call(path(quiz, user), { method: "DELETE" }), 404, "not_found");
    expectProblem(await call(path(MISSING_QUIZ, user), { method: "DELETE" }), 404, "not_found");
  });

  it("a key with only quizzes:read → 403, and the accommodation stays", async () => {
    const [quiz, user] = await Promise.all([newQuiz(), newUser()]);
    expect((await put(quiz, user, { extra_attempts: 3 })).status).toBe(200);
    expectProblem(await call(path(quiz, user), { method: "DELETE", auth: readOnlyKey }), 403, "insufficient_scope");
    expect((await call(path(quiz))).json.accommodations).toHaveLength(1);
  });
});

describe("DELETE /v1/quizzes/{id}", () => {
  it("deletes the quiz's accommodations with it, and no other quiz's", async () => {
    const [quiz, other, user] = await Promise.all([newQuiz(), newQuiz(), newUser()]);
    expect((await put(quiz, user, { extra_attempts: 1 })).status).toBe(200);
    expect((await put(other, user, { extra_attempts: 2 })).status).toBe(200);
    const deleted = await call(`/v1/quizzes/${quiz}`, { method: "DELETE" });
    expect(deleted.status, deleted.text).toBe(204);
    const left = await env.DB.prepare("SELECT quiz_id FROM accommodations WHERE user_id = ?")
      .bind(user)
      .all<{ quiz_id: string }>();
    expect(left.results.map((r) => r.quiz_id)).toEqual([other]);
  });
});
