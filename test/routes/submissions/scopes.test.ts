import { describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../../support/call";
import { createQuiz, createSubmission, createUser, grade, MISSING_SUB, MISSING_USER, submit } from "./fixtures";

describe("submission scopes", () => {
  it("submissions:read can read but not create, answer or grade → 403 insufficient_scope", async () => {
    const { key } = await seedApiKey(["submissions:read"]);
    const quiz = await createQuiz();
    const userId = await createUser();
    const sub = await createSubmission(quiz.id, userId);
    const denied = [
      await submit(quiz.id, { user_id: userId }, key),
      await call(`/v1/submissions/${sub.id}/answers`, { method: "PUT", body: { answers: [] }, auth: key }),
      await call(`/v1/submissions/${sub.id}/grade`, { method: "POST", auth: key }),
    ];
    for (const res of denied) {
      expectProblem(res, 403, "insufficient_scope");
      expect(res.headers.get("www-authenticate")).toContain('scope="submissions:write"');
    }
    expect((await call(`/v1/submissions/${sub.id}`)).json.status).toBe("open");
    for (const path of [
      `/v1/submissions/${sub.id}`,
      `/v1/quizzes/${quiz.id}/submissions`,
      `/v1/users/${userId}/submissions`,
    ] as const)
      expect((await call(path, { auth: key })).status, path).toBe(200);
    await grade(sub.id);
    expect((await call(`/v1/submissions/${sub.id}/results`, { auth: key })).status).toBe(200);
  });

  it("submissions:write can create, answer and grade but not read → 403 insufficient_scope", async () => {
    const { key } = await seedApiKey(["submissions:write"]);
    const quiz = await createQuiz();
    const userId = await createUser();
    const created = await submit(quiz.id, { user_id: userId }, key);
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as string;
    const put = await call(`/v1/submissions/${id}/answers`, { method: "PUT", body: { answers: [] }, auth: key });
    expect(put.status, put.text).toBe(200);
    const graded = await call(`/v1/submissions/${id}/grade`, { method: "POST", auth: key });
    expect(graded.status, graded.text).toBe(200);
    for (const path of [
      `/v1/submissions/${id}/results`,
      `/v1/submissions/${id}`,
      `/v1/quizzes/${quiz.id}/submissions`,
      `/v1/users/${userId}/submissions`,
    ] as const) {
      const res = await call(path, { auth: key });
      expectProblem(res, 403, "insufficient_scope");
      expect(res.headers.get("www-authenticate")).toContain('scope="submissions:read"');
    }
  });

  it("no credential → 401", async () => {
    const quiz = await createQuiz();
    expectProblem(await submit(quiz.id, { user_id: MISSING_USER }, false), 401, "unauthorized");
    expectProblem(await call(`/v1/submissions/${MISSING_SUB}/grade`, { method: "POST", auth: false }), 401, "unauthorized");
    expectProblem(await call(`/v1/submissions/${MISSING_SUB}/results`, { auth: false }), 401, "unauthorized");
  });
});
