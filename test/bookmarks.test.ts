import { describe, expect, it } from "vitest";
import { call, expectProblem } from "./helpers";

/**
 * CONTRACT §11: every /v1 request runs in a D1 session; its answer carries the session's bookmark
 * (X-D1-Bookmark), a request carrying a write's bookmark reads that write, and a malformed
 * bookmark is refused before anything is read.
 */

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

describe("X-D1-Bookmark", () => {
  it("is on every /v1 answer that reached a handler: a read, a write, a 404 from a lookup", async () => {
    for (const res of [
      await call("/v1/quizzes?limit=1"),
      await call("/v1/users", { body: { name: "B", email: `${crypto.randomUUID()}@example.com` } }),
      await call("/v1/quizzes/quiz_00000000000000000000000000"),
    ]) {
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get("x-d1-bookmark") ?? "", res.text).toMatch(BOOKMARK);
    }
    // Not on the public documents outside /v1.
    expect((await call("/health", { auth: false })).headers.get("x-d1-bookmark")).toBeNull();
  });

  it("a read carrying a write's bookmark sees the write; bookmarks only move forward", async () => {
    const created = await call("/v1/quizzes", { body: { title: "Read your writes" } });
    const written = created.headers.get("x-d1-bookmark")!;
    expect(written).toMatch(BOOKMARK);
    const read = await call(`/v1/quizzes/${created.json.id}`, { headers: { "x-d1-bookmark": written } });
    expect(read.status, read.text).toBe(200);
    expect(read.json.title).toBe("Read your writes");
    const after = read.headers.get("x-d1-bookmark")!;
    expect(after >= written, `${after} < ${written}`).toBe(true);
  });

  it("an idempotent replay carries one too", async () => {
    const init = { body: { title: "Replayed" }, headers: { "idempotency-key": crypto.randomUUID() } };
    await call("/v1/quizzes", init);
    const replay = await call("/v1/quizzes", init);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.headers.get("x-d1-bookmark") ?? "").toMatch(BOOKMARK);
  });

  it("a malformed bookmark → 400 invalid_bookmark, before any lookup", async () => {
    for (const bad of ["nope", "00000000-00000000-00000000", "0000000G-00000000-00000000-00000000000000000000000000000000"]) {
      const res = await call("/v1/quizzes", { headers: { "x-d1-bookmark": bad } });
      expectProblem(res, 400, "invalid_bookmark");
    }
  });
});
