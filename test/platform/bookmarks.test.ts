import { describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../support/call";

/**
 * docs/api.md: every /v1 request runs in a D1 session; its answer carries the session's bookmark
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

  it("comes only from D1 and only to an authorized request: a 401 or 403 carries none, even when the request sent one", async () => {
    const written = (await call("/v1/quizzes", { body: { title: "Bookmarked" } })).headers.get("x-d1-bookmark")!;
    expect(written).toMatch(BOOKMARK);
    const headers = { "x-d1-bookmark": written };
    const noKey = await call("/v1/quizzes", { auth: false, headers });
    const badKey = await call("/v1/quizzes", { auth: "qz_at_not-a-token", headers });
    const wrongScope = await call("/v1/users", { auth: (await seedApiKey(["quizzes:read"])).key, headers });
    for (const [res, status] of [
      [noKey, 401],
      [badKey, 401],
      [wrongScope, 403],
    ] as const) {
      expect(res.status, res.text).toBe(status);
      expect(res.headers.get("x-d1-bookmark"), `${status}: ${res.text}`).toBeNull();
    }
    // A handler's 4xx carries the session's bookmark: D1 answered its lookup.
    const missing = await call("/v1/quizzes/quiz_00000000000000000000000000", { headers });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-d1-bookmark") ?? "").toMatch(BOOKMARK);
  });

  it("a malformed bookmark → 400 invalid_bookmark, before any lookup, and none comes back", async () => {
    for (const bad of ["nope", "00000000-00000000-00000000", "0000000G-00000000-00000000-00000000000000000000000000000000"]) {
      const res = await call("/v1/quizzes", { headers: { "x-d1-bookmark": bad } });
      expectProblem(res, 400, "invalid_bookmark");
      expect(res.headers.get("x-d1-bookmark")).toBeNull();
    }
  });
});
