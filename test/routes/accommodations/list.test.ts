import { describe, expect, it } from "vitest";
import { type AnswerOf, call, expectProblem } from "../../support/call";
import { MISSING_QUIZ, newQuiz, newUser, path, put, readOnlyKey, useReadOnlyKey } from "./fixtures";

useReadOnlyKey();

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
      const res: AnswerOf<`/v1/quizzes/${string}/accommodations`> = await call(
        `${path(quiz)}?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
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
