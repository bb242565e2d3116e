import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { ISO_MS, MISSING_QUIZ, MISSING_USER, newQuiz, newUser, path, put, readOnlyKey, useReadOnlyKey } from "./fixtures";

useReadOnlyKey();

describe("PUT /v1/quizzes/{id}/accommodations/{user_id}", () => {
  it("creates → 200, then replaces: absent fields are 0", async () => {
    const [quiz, user] = await Promise.all([newQuiz(), newUser()]);
    const first = await put(quiz, user, { extra_time_seconds: 900, extra_attempts: 2 });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({
      quiz_id: quiz,
      user_id: user,
      extra_time_seconds: 900,
      extra_attempts: 2,
      updated_at: expect.stringMatching(ISO_MS),
    });

    const second = await put(quiz, user, { extra_attempts: 1 });
    expect(second.status, second.text).toBe(200);
    expect(second.json).toMatchObject({ quiz_id: quiz, user_id: user, extra_time_seconds: 0, extra_attempts: 1 });
    expect(second.json.updated_at >= first.json.updated_at).toBe(true);

    const empty = await put(quiz, user, {});
    expect(empty.json).toMatchObject({ extra_time_seconds: 0, extra_attempts: 0 });

    const list = await call(path(quiz));
    expect(list.json.accommodations).toEqual([empty.json]);
  });

  it("takes the bounds themselves", async () => {
    const [quiz, user] = await Promise.all([newQuiz(), newUser()]);
    const res = await put(quiz, user, { extra_time_seconds: 604_800, extra_attempts: 100 });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ extra_time_seconds: 604_800, extra_attempts: 100 });
  });

  it("a value out of bounds or not an integer → 400 naming the field", async () => {
    const [quiz, user] = await Promise.all([newQuiz(), newUser()]);
    const cases: [Record<string, unknown>, string][] = [
      [{ extra_time_seconds: -1 }, "extra_time_seconds"],
      [{ extra_time_seconds: 604_801 }, "extra_time_seconds"],
      [{ extra_time_seconds: 1.5 }, "extra_time_seconds"],
      [{ extra_time_seconds: "60" }, "extra_time_seconds"],
      [{ extra_time_seconds: null }, "extra_time_seconds"],
      [{ extra_attempts: -1 }, "extra_attempts"],
      [{ extra_attempts: 101 }, "extra_attempts"],
      [{ extra_attempts: 0.5 }, "extra_attempts"],
      [{ extra_minutes: 5 }, "extra_minutes"],
    ];
    for (const [body, field] of cases) {
      const problem = expectProblem(await put(quiz, user, body), 400, "validation_failed");
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(body),
      ).toEqual([field]);
    }
    expect((await call(path(quiz))).json.accommodations).toEqual([]);
  });

  it("a body that is not an object → 400", async () => {
    const [quiz, user] = await Promise.all([newQuiz(), newUser()]);
    expectProblem(await put(quiz, user, [1]), 400, "validation_failed");
  });

  it("an unknown quiz → 404", async () => {
    const user = await newUser();
    expectProblem(await put(MISSING_QUIZ, user, { extra_attempts: 1 }), 404, "not_found");
  });

  it("an unknown, deleted or malformed user → 404", async () => {
    const [quiz, deleted] = await Promise.all([newQuiz(), newUser()]);
    expect((await call(`/v1/users/${deleted}`, { method: "DELETE" })).status).toBe(204);
    for (const user of [MISSING_USER, deleted, "nope", quiz])
      expectProblem(await put(quiz, user, { extra_attempts: 1 }), 404, "not_found");
    expect((await call(path(quiz))).json.accommodations).toEqual([]);
  });

  it("a key with only quizzes:read → 403", async () => {
    const [quiz, user] = await Promise.all([newQuiz(), newUser()]);
    expectProblem(await put(quiz, user, { extra_attempts: 1 }, readOnlyKey), 403, "insufficient_scope");
    expect((await call(path(quiz))).json.accommodations).toEqual([]);
  });
});
