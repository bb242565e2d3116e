import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createQuiz, createSubmission, createUser, errorPaths, grade, listAll, MISSING_QUIZ, MISSING_USER } from "./fixtures";

describe("GET /v1/quizzes/{id}/submissions", () => {
  it("pages with limit and cursor, oldest first, with Link; every submission exactly once", async () => {
    const quiz = await createQuiz();
    const users = [await createUser(), await createUser()];
    const created = [];
    for (let i = 0; i < 7; i++) created.push(await createSubmission(quiz.id, users[i % 2]!));
    const pages = await listAll(`/v1/quizzes/${quiz.id}/submissions`, 3);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(created);
    // A limit that divides the total exactly ends with next_cursor null, not an empty page.
    expect((await listAll(`/v1/quizzes/${quiz.id}/submissions`, 7)).map((p) => p.length)).toEqual([7]);
    const first = await call(`/v1/quizzes/${quiz.id}/submissions?limit=3`);
    const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.get("link") ?? "");
    expect(link).not.toBeNull();
    const next = await call(link![1] as `/v1/quizzes/${string}/submissions?${string}`);
    expect(next.json.submissions).toEqual(created.slice(3, 6));
  });

  it("filters by status", async () => {
    const quiz = await createQuiz();
    const userId = await createUser();
    const subs = [];
    for (let i = 0; i < 5; i++) subs.push(await createSubmission(quiz.id, userId));
    for (const i of [1, 3]) await grade(subs[i]!.id);
    const graded = (await listAll(`/v1/quizzes/${quiz.id}/submissions`, 1, "&status=graded")).flat();
    expect(graded.map((s) => s.id)).toEqual([subs[1]!.id, subs[3]!.id]);
    expect(graded.every((s) => s.status === "graded" && typeof s.score === "number")).toBe(true);
    const open = (await listAll(`/v1/quizzes/${quiz.id}/submissions`, 2, "&status=open")).flat();
    expect(open.map((s) => s.id)).toEqual([subs[0]!.id, subs[2]!.id, subs[4]!.id]);
    expect(errorPaths(await call(`/v1/quizzes/${quiz.id}/submissions?status=closed`))).toEqual(["query.status"]);
  });

  it("a quiz without submissions → an empty page", async () => {
    const quiz = await createQuiz();
    const res = await call(`/v1/quizzes/${quiz.id}/submissions`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ submissions: [], next_cursor: null });
  });

  it("bad limit or cursor → 400", async () => {
    const quiz = await createQuiz();
    for (const query of ["limit=0", "limit=101", "limit=abc", "cursor=nope", "cursor=", "page=2"])
      expectProblem(await call(`/v1/quizzes/${quiz.id}/submissions?${query}`), 400, "validation_failed");
  });

  it("unknown or malformed quiz → 404", async () => {
    expectProblem(await call(`/v1/quizzes/${MISSING_QUIZ}/submissions`), 404, "not_found");
    expectProblem(await call("/v1/quizzes/nope/submissions"), 404, "not_found");
  });
});

describe("GET /v1/users/{id}/submissions", () => {
  it("lists the user's submissions to every quiz, paged and filtered", async () => {
    const [q1, q2] = [await createQuiz(), await createQuiz()];
    const [userId, other] = [await createUser(), await createUser()];
    const mine = [];
    for (let i = 0; i < 5; i++) {
      mine.push(await createSubmission(i % 2 ? q2.id : q1.id, userId));
      await createSubmission(q1.id, other);
    }
    await grade(mine[0]!.id);
    const all = (await listAll(`/v1/users/${userId}/submissions`, 2)).flat();
    expect(all.map((s) => s.id)).toEqual(mine.map((s) => s.id));
    const graded = (await listAll(`/v1/users/${userId}/submissions`, 2, "&status=graded")).flat();
    expect(graded.map((s) => s.id)).toEqual([mine[0]!.id]);
    const open = (await listAll(`/v1/users/${userId}/submissions`, 3, "&status=open")).flat();
    expect(open.map((s) => s.id)).toEqual(mine.slice(1).map((s) => s.id));
  });

  it("a user without submissions → an empty page", async () => {
    const res = await call(`/v1/users/${await createUser()}/submissions`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ submissions: [], next_cursor: null });
  });

  it("unknown, malformed or deleted user → 404, whatever the filter", async () => {
    expectProblem(await call(`/v1/users/${MISSING_USER}/submissions`), 404, "not_found");
    expectProblem(await call("/v1/users/nope/submissions"), 404, "not_found");
    const quiz = await createQuiz();
    const userId = await createUser();
    await grade((await createSubmission(quiz.id, userId)).id);
    expect((await call(`/v1/users/${userId}`, { method: "DELETE" })).status).toBe(204);
    for (const query of ["", "?status=graded", "?status=open"])
      expectProblem(await call(`/v1/users/${userId}/submissions${query}`), 404, "not_found");
    // The quiz still lists the anonymised submission.
    expect((await call(`/v1/quizzes/${quiz.id}/submissions`)).json.submissions).toHaveLength(1);
  });
});
