import { describe, expect, it } from "vitest";
import { SCOPES } from "../../../src/lib/scopes";
import { call, expectProblem, seedApiKey } from "../../support/call";
import { analytics, createQuiz, createUser, tf } from "./fixtures";

describe("analytics scope", () => {
  it("needs analytics:read → 403 insufficient_scope without it", async () => {
    const quiz = await createQuiz([tf()]);
    const user = await createUser();
    const { key: without } = await seedApiKey(SCOPES.filter((s) => s !== "analytics:read" && s !== "admin"));
    for (const path of [`/v1/analytics/quiz/${quiz.id}`, `/v1/analytics/user/${user}`] as const) {
      const res = await call(path, { auth: without });
      expectProblem(res, 403, "insufficient_scope");
      expect(res.headers.get("www-authenticate")).toContain('scope="analytics:read"');
    }
    const { key: reader } = await seedApiKey(["analytics:read"]);
    expect((await analytics("quiz", quiz.id, reader)).quiz_id).toBe(quiz.id);
    expect((await analytics("user", user, reader)).user_id).toBe(user);
    expectProblem(await call(`/v1/analytics/quiz/${quiz.id}`, { auth: false }), 401, "unauthorized");
  });
});
