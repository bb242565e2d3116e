import { describe, expect, it } from "vitest";
import { type AnswerOf, call, expectProblem, type Schema } from "../../support/call";
import { createQuiz, tf } from "./fixtures";

describe("GET /v1/quizzes", () => {
  it("lists quizzes with their integer question count", async () => {
    const quiz = await createQuiz({ questions: [tf(), tf(), tf()] });
    const seen: Schema<"Quiz">[] = [];
    let path: `/v1/quizzes?${string}` | null = "/v1/quizzes?limit=100";
    while (path) {
      const res: AnswerOf<"/v1/quizzes"> = await call(path);
      expect(res.status, res.text).toBe(200);
      seen.push(...res.json.quizzes);
      path = res.json.next_cursor ? `/v1/quizzes?limit=100&cursor=${res.json.next_cursor}` : null;
    }
    const listed = seen.find((q) => q.id === quiz.id);
    expect(listed).toEqual({ ...quiz, questions: 3 });
    expect(Number.isInteger(listed!.questions)).toBe(true);
  });

  it("defaults to 20 per page", async () => {
    await Promise.all(Array.from({ length: 21 }, () => createQuiz()));
    const res = await call("/v1/quizzes");
    expect(res.status).toBe(200);
    expect(res.json.quizzes).toHaveLength(20);
    expect(typeof res.json.next_cursor).toBe("string");
  });

  it("walks 250 quizzes with ?limit=7 via next_cursor and Link, each exactly once, in creation order", async () => {
    // Created in chunks of 25: quizzes of one chunk are concurrent, chunks are in sequence.
    const chunks: string[][] = [];
    for (let c = 0; c < 10; c++) {
      const quizzes = await Promise.all(Array.from({ length: 25 }, (_, i) => createQuiz({ title: `Page ${c * 25 + i}` })));
      chunks.push(quizzes.map((q) => q.id));
    }
    const created = new Set(chunks.flat());
    expect(created.size).toBe(250);

    const walked: Schema<"Quiz">[] = [];
    let path: `/v1/quizzes?${string}` | null = "/v1/quizzes?limit=7";
    let viaLink = true;
    let pages = 0;
    while (path) {
      const res: AnswerOf<"/v1/quizzes"> = await call(path);
      expect(res.status, res.text).toBe(200);
      pages++;
      expect(res.json.quizzes.length).toBeLessThanOrEqual(7);
      walked.push(...res.json.quizzes);
      const link = res.headers.get("link");
      if (res.json.next_cursor === null) {
        expect(link).toBeNull();
        path = null;
      } else {
        expect(res.json.quizzes).toHaveLength(7);
        expect(typeof res.json.next_cursor).toBe("string");
        const match = link?.match(/^<([^>]+)>; rel="next"$/);
        expect(match, `Link: ${link}`).toBeTruthy();
        const next = new URL(match![1]!, "http://quiz.test");
        expect(next.pathname).toBe("/v1/quizzes");
        expect(next.searchParams.get("cursor")).toBe(res.json.next_cursor);
        expect(next.searchParams.get("limit")).toBe("7");
        // Alternate between following the Link header and building the URL from next_cursor.
        path = viaLink
          ? (`${next.pathname}${next.search}` as `/v1/quizzes?${string}`)
          : `/v1/quizzes?limit=7&cursor=${encodeURIComponent(res.json.next_cursor!)}`;
        viaLink = !viaLink;
      }
    }
    const ids = walked.map((q) => q.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBe(Math.ceil(ids.length / 7) + (ids.length % 7 === 0 ? 1 : 0));
    // Oldest first: ids and creation times never go backwards.
    expect([...ids].sort()).toEqual(ids);
    for (let i = 1; i < walked.length; i++) expect(walked[i]!.created_at >= walked[i - 1]!.created_at).toBe(true);
    // Every quiz of ours is seen exactly once, and each chunk before the next.
    const ours = ids.filter((id) => created.has(id));
    expect(ours).toHaveLength(250);
    const chunkOf = new Map(chunks.flatMap((chunk, c) => chunk.map((id) => [id, c] as const)));
    const order = ours.map((id) => chunkOf.get(id)!);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  }, 60_000);

  it("the last page has next_cursor null and no Link header", async () => {
    const all = await call("/v1/quizzes?limit=100");
    let res = all;
    while (res.json.next_cursor) res = await call(`/v1/quizzes?limit=100&cursor=${res.json.next_cursor}`);
    expect(res.status).toBe(200);
    expect(res.json.next_cursor).toBeNull();
    expect(res.headers.get("link")).toBeNull();
  });

  it("limit=100 is allowed, limit=1 is allowed", async () => {
    await createQuiz();
    expect((await call("/v1/quizzes?limit=100")).json.quizzes.length).toBeLessThanOrEqual(100);
    const one = await call("/v1/quizzes?limit=1");
    expect(one.status).toBe(200);
    expect(one.json.quizzes).toHaveLength(1);
  });

  it("a limit outside 1–100 or not an integer → 400", async () => {
    for (const limit of ["0", "101", "abc", "-1", "2.5", ""]) {
      const problem = expectProblem(await call(`/v1/quizzes?limit=${limit}`), 400, "validation_failed");
      expect(problem.errors?.[0]?.path, `limit=${limit}`).toBe("query.limit");
    }
  });

  it("a bad cursor → 400", async () => {
    const userCursor = btoa(JSON.stringify({ v: 1, after: "user_01kamz3f7c9n0p8s6e5vwx2y4r" })).replace(/=+$/, "");
    const wrongVersion = btoa(JSON.stringify({ v: 2, after: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r" })).replace(/=+$/, "");
    for (const cursor of ["garbage", "!!!", "eyJ2IjoxfQ", userCursor, wrongVersion, "x".repeat(500)]) {
      const problem = expectProblem(await call(`/v1/quizzes?cursor=${encodeURIComponent(cursor)}`), 400, "validation_failed");
      expect(problem.errors?.[0]?.path, cursor).toBe("query.cursor");
    }
  });

  it("an unknown query parameter → 400 naming it", async () => {
    const problem = expectProblem(await call("/v1/quizzes?sort=title"), 400, "validation_failed");
    expect(problem.errors).toContainEqual({ path: "query.sort", message: expect.any(String) });
  });

  it("wrong method → 405 with Allow: GET, POST", async () => {
    const res = await call("/v1/quizzes", { method: "DELETE" });
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")?.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "POST"]));
  });
});
