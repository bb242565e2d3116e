import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../../helpers";

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_QUIZ = "quiz_01kamz3f7c9n0p8s6e5vwx2y4r";
const MISSING_USER = "user_01kamz3f7c9n0p8s6e5vwx2y4r";

async function created(path: string, body: unknown) {
  const res = await call(path, { body });
  expect(res.status, `${path}: ${res.text}`).toBe(201);
  return res.json.id as string;
}

const newQuiz = () => created("/v1/quizzes", { title: `Quiz ${crypto.randomUUID()}` });
const newUser = () => created("/v1/users", { name: "Ada", email: `${crypto.randomUUID()}@example.com` });
const path = (quizId: string, userId?: string) => `/v1/quizzes/${quizId}/accommodations${userId ? `/${userId}` : ""}`;
const put = (quizId: string, userId: string, body: unknown, auth?: string) =>
  call(path(quizId, userId), { method: "PUT", body, auth });

/** A key that may read quizzes but not write them. */
let readOnlyKey: string;
beforeAll(async () => {
  readOnlyKey = (await seedApiKey(["quizzes:read"], { name: "read only" })).key;
});

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

describe("GET /v1/quizzes/{id}/accommodations", () => {
  it("pages by user id ascending", async () => {
    const [quiz, other] = await Promise.all([newQuiz(), newQuiz()]);
    const users = await Promise.all(Array.from({ length: 5 }, newUser));
    for (const [i, user] of users.entries()) expect((await put(quiz, user, { extra_attempts: i })).status).toBe(200);
    // Another quiz's accommodation is not this quiz's.
    expect((await put(other, users[0]!, { extra_attempts: 9 })).status).toBe(200);

    const seen: { user_id: string; extra_attempts: number }[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(`${path(quiz)}?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status, res.text).toBe(200);
      sizes.push(res.json.accommodations.length);
      seen.push(...res.json.accommodations);
      cursor = res.json.next_cursor;
      if (cursor) expect(res.headers.get("link")).toContain('rel="next"');
    } while (cursor);
    expect(sizes).toEqual([2, 2, 1]);
    const byId = new Map(users.map((u, i) => [u, i]));
    expect(seen.map((a) => a.user_id)).toEqual([...users].sort());
    for (const a of seen) expect(a).toMatchObject({ quiz_id: quiz, extra_attempts: byId.get(a.user_id) });
  });

  it("a quiz without accommodations → 200 []", async () => {
    const res = await call(path(await newQuiz()));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ accommodations: [], next_cursor: null });
  });

  it("an unknown quiz → 404", async () => {
    expectProblem(await call(path(MISSING_QUIZ)), 404, "not_found");
  });

  it("a bad cursor or limit → 400", async () => {
    const quiz = await newQuiz();
    expectProblem(await call(`${path(quiz)}?cursor=nope`), 400, "validation_failed");
    expectProblem(await call(`${path(quiz)}?limit=0`), 400, "validation_failed");
  });

  it("a key with only quizzes:read → 403", async () => {
    expectProblem(await call(path(await newQuiz()), { auth: readOnlyKey }), 403, "insufficient_scope");
  });
});

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
