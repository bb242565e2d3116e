import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createQuiz, MISSING_QUIZ_ID, tf } from "./fixtures";

describe("GET /v1/quizzes/{id}/questions", () => {
  it("lists in position order, paginated by limit, next_cursor and Link", async () => {
    const quizId = await createQuiz(Array.from({ length: 7 }, (_, i) => tf(`Q${i + 1}`)));
    const first = await call(`/v1/quizzes/${quizId}/questions?limit=3`);
    expect(first.status).toBe(200);
    expect(first.json.questions.map((q) => q.prompt)).toEqual(["Q1", "Q2", "Q3"]);
    const link = first.headers.get("link")?.match(/^<([^>]+)>; rel="next"$/)?.[1];
    expect(link).toBe(`/v1/quizzes/${quizId}/questions?limit=3&cursor=${first.json.next_cursor}`);
    const second = await call(link as `/v1/quizzes/${string}/questions?${string}`);
    expect(second.json.questions.map((q) => q.prompt)).toEqual(["Q4", "Q5", "Q6"]);
    const third = await call(`/v1/quizzes/${quizId}/questions?limit=3&cursor=${second.json.next_cursor}`);
    expect(third.json.questions.map((q) => q.prompt)).toEqual(["Q7"]);
    expect(third.json.next_cursor).toBeNull();
    expect(third.headers.get("link")).toBeNull();
  });

  it("an empty quiz → 200 with no questions", async () => {
    const quizId = await createQuiz();
    const res = await call(`/v1/quizzes/${quizId}/questions`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ questions: [], next_cursor: null });
  });

  it("unknown quiz → 404", async () => {
    expectProblem(await call(`/v1/quizzes/${MISSING_QUIZ_ID}/questions`), 404, "not_found");
  });

  it("bad limit, bad cursor or unknown parameter → 400", async () => {
    const quizId = await createQuiz([tf("x")]);
    const idCursor = btoa(JSON.stringify({ v: 1, after: MISSING_QUIZ_ID })).replace(/=+$/, "");
    for (const [query, path] of [
      ["limit=0", "query.limit"],
      ["limit=101", "query.limit"],
      ["cursor=zzz", "query.cursor"],
      [`cursor=${idCursor}`, "query.cursor"],
      ["type=numeric", "query.type"],
    ]) {
      const problem = expectProblem(await call(`/v1/quizzes/${quizId}/questions?${query}`), 400, "validation_failed");
      expect(
        problem.errors?.map((e) => e.path),
        query,
      ).toContain(path);
    }
  });
});
