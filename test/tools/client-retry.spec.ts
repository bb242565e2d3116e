// The typed client's retries and Idempotency-Keys: what is retried (429, 503, no answer), what
// never is (other statuses; a non-idempotent request without a key), how long it waits
// (exponential backoff with jitter; Retry-After as a minimum), and that a POST's retries carry
// the key its first attempt carried.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createQuizClient, RETRY_DEFAULTS } from "../../clients/typescript/index";
import { backoffMs, retryAfterMs, retryDelayMs } from "../../clients/typescript/src/retry";
import { json, networkError, problem, scriptedFetch, UUID } from "./client-fakes";

const BASE = "https://quiz.test";
const quiz = { id: "quiz_01", title: "Capitals" };

function client(steps: Parameters<typeof scriptedFetch>[0], retry?: Parameters<typeof createQuizClient>[0]["retry"]) {
  const fake = scriptedFetch(steps);
  const api = createQuizClient({ baseUrl: BASE, apiKey: "qz_live_test", fetch: fake.fetch, retry });
  return { api, sent: fake.sent };
}

describe("retryAfterMs", () => {
  it("reads delay-seconds and HTTP dates, and nothing else", () => {
    const now = Date.parse("2026-11-26T10:00:00Z");
    expect(retryAfterMs("7", now)).toBe(7000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("Thu, 26 Nov 2026 10:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs("Thu, 26 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs("-3", now)).toBeUndefined();
  });
});

describe("backoff", () => {
  const policy = { maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1000 };

  it("draws from a ceiling that doubles with each retry, up to maxDelayMs", () => {
    const highest = (retry: number) => backoffMs(retry, policy, () => 0.999_999);
    expect([1, 2, 3, 4, 5, 6].map(highest)).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffMs(3, policy, () => 0)).toBe(0);
  });

  it("waits at least Retry-After, a little jitter on top, and gives up on one beyond maxDelayMs", () => {
    const refused = (value: string) => new Response(null, { status: 429, headers: { "Retry-After": value } });
    expect(retryDelayMs(refused("0"), 1, policy, () => 0)).toBe(0);
    expect(retryDelayMs(refused("0"), 1, policy, () => 0.5)).toBe(50);
    expect(retryDelayMs(new Response(null, { status: 503 }), 2, policy, () => 0.5)).toBe(100);
    expect(retryDelayMs(refused("2"), 1, policy, () => 0)).toBeUndefined();
    expect(retryDelayMs(new Response(null, { status: 500 }), 1, policy, () => 0)).toBeUndefined();
  });
});

describe("which answers are retried", () => {
  it("retries 503 and 429 on a GET until an answer that is not one of them", async () => {
    const { api, sent } = client([problem(503, "unavailable"), problem(429, "rate_limited"), json(200, quiz)], {
      baseDelayMs: 1,
    });
    const { data, response } = await api.GET("/v1/quizzes/{id}", { params: { path: { id: quiz.id } } });
    expect(response.status).toBe(200);
    expect(data?.id).toBe(quiz.id);
    expect(sent).toHaveLength(3);
  });

  it.each([400, 401, 403, 404, 409, 413, 500, 502, 504])("never retries a %i", async (status) => {
    const { api, sent } = client([problem(status, "x"), json(200, quiz)], { baseDelayMs: 1 });
    const { response } = await api.GET("/v1/quizzes/{id}", { params: { path: { id: quiz.id } } });
    expect(response.status).toBe(status);
    expect(sent).toHaveLength(1);
  });

  it("stops after maxAttempts and answers the last 503", async () => {
    const { api, sent } = client(
      Array.from({ length: 5 }, () => problem(503, "unavailable")),
      {
        maxAttempts: 3,
        baseDelayMs: 1,
      },
    );
    const { response, error } = await api.GET("/v1/quizzes");
    expect(response.status).toBe(503);
    expect(error).toMatchObject({ code: "unavailable" });
    expect(sent).toHaveLength(3);
  });

  it("retries a network error, and throws it once the attempts are spent", async () => {
    const retried = client([networkError(), json(200, { quizzes: [], next_cursor: null })], { baseDelayMs: 1 });
    expect((await retried.api.GET("/v1/quizzes")).response.status).toBe(200);
    expect(retried.sent).toHaveLength(2);

    const failing = client([networkError(), networkError()], { maxAttempts: 2, baseDelayMs: 1 });
    await expect(failing.api.GET("/v1/quizzes")).rejects.toThrow("fetch failed");
    expect(failing.sent).toHaveLength(2);
  });

  it("does not retry an error that is not a network error", async () => {
    const { api, sent } = client([new RangeError("bug"), json(200, quiz)], { baseDelayMs: 1 });
    await expect(api.GET("/v1/quizzes")).rejects.toThrow("bug");
    expect(sent).toHaveLength(1);
  });

  it("retry: false sends each request once", async () => {
    const { api, sent } = client([problem(503, "unavailable")], false);
    expect((await api.GET("/v1/quizzes")).response.status).toBe(503);
    expect(sent).toHaveLength(1);
  });

  it("has defaults of 4 attempts, 500 ms and a minute", () => {
    expect(RETRY_DEFAULTS).toEqual({ maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 60_000 });
  });
});

describe("Retry-After", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is waited out before the next attempt", async () => {
    const fake = scriptedFetch([problem(429, "rate_limited", { "Retry-After": "2" }), json(200, quiz)], () => Date.now());
    const api = createQuizClient({ baseUrl: BASE, apiKey: "qz_live_test", fetch: fake.fetch, retry: { baseDelayMs: 100 } });
    const call = api.GET("/v1/quizzes/{id}", { params: { path: { id: quiz.id } } });
    await vi.advanceTimersByTimeAsync(1999);
    expect(fake.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(101);
    expect((await call).response.status).toBe(200);
    expect(fake.sent).toHaveLength(2);
    const waited = (fake.sent[1]?.at ?? 0) - (fake.sent[0]?.at ?? 0);
    expect(waited).toBeGreaterThanOrEqual(2000);
    expect(waited).toBeLessThan(2100);
  });

  it("longer than maxDelayMs is not waited for: the 429 is the answer", async () => {
    const fake = scriptedFetch([problem(429, "rate_limited", { "Retry-After": "3600" })]);
    const api = createQuizClient({ baseUrl: BASE, apiKey: "qz_live_test", fetch: fake.fetch });
    const { response } = await api.GET("/v1/quizzes");
    expect(response.status).toBe(429);
    expect(fake.sent).toHaveLength(1);
  });

  it("the caller's abort signal ends the wait, and nothing more is sent", async () => {
    const fake = scriptedFetch([problem(429, "rate_limited", { "Retry-After": "30" }), json(200, quiz)]);
    const api = createQuizClient({ baseUrl: BASE, apiKey: "qz_live_test", fetch: fake.fetch });
    const controller = new AbortController();
    const call = api.GET("/v1/quizzes", { signal: controller.signal });
    const outcome = expect(call).rejects.toThrow(/abort/i);
    await vi.advanceTimersByTimeAsync(1000);
    controller.abort();
    await outcome;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fake.sent).toHaveLength(1);
  });
});

describe("Idempotency-Key", () => {
  it("is generated for every POST, a fresh UUID each time", async () => {
    const { api, sent } = client([json(201, quiz), json(201, quiz)]);
    await api.POST("/v1/quizzes", { body: { title: "A" } });
    await api.POST("/v1/quizzes", { body: { title: "B" } });
    const keys = sent.map((s) => s.headers.get("Idempotency-Key"));
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toMatch(UUID);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("is the same on every retry of a POST, with the same body", async () => {
    const replayed = json(201, quiz, { "Idempotent-Replayed": "true" });
    const { api, sent } = client([networkError(), problem(503, "unavailable"), replayed], { baseDelayMs: 1 });
    const { data, response } = await api.POST("/v1/quizzes", { body: { title: "Capitals" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("Idempotent-Replayed")).toBe("true");
    expect(data?.id).toBe(quiz.id);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.headers.get("Idempotency-Key"))).size).toBe(1);
    expect(sent.map((s) => JSON.parse(s.body))).toEqual(Array(3).fill({ title: "Capitals" }));
  });

  it("given by the caller wins", async () => {
    const { api, sent } = client([problem(503, "unavailable"), json(201, quiz)], { baseDelayMs: 1 });
    await api.POST("/v1/quizzes", { body: { title: "A" }, headers: { "Idempotency-Key": "order-42" } });
    expect(sent.map((s) => s.headers.get("Idempotency-Key"))).toEqual(["order-42", "order-42"]);
  });

  it("is not added to other methods", async () => {
    const { api, sent } = client([json(200, quiz), new Response(null, { status: 204 })]);
    await api.GET("/v1/quizzes/{id}", { params: { path: { id: quiz.id } } });
    await api.DELETE("/v1/quizzes/{id}", { params: { path: { id: quiz.id } } });
    expect(sent.map((s) => s.headers.has("Idempotency-Key"))).toEqual([false, false]);
  });

  it("a PATCH, not idempotent, is retried only with a key of the caller's", async () => {
    const without = client([problem(503, "unavailable"), json(200, quiz)], { baseDelayMs: 1 });
    const patch = { params: { path: { id: quiz.id } }, body: { title: "New" } };
    expect((await without.api.PATCH("/v1/quizzes/{id}", patch)).response.status).toBe(503);
    expect(without.sent).toHaveLength(1);

    const withKey = client([networkError(), json(200, quiz)], { baseDelayMs: 1 });
    const answer = await withKey.api.PATCH("/v1/quizzes/{id}", { ...patch, headers: { "Idempotency-Key": "rename-1" } });
    expect(answer.response.status).toBe(200);
    expect(withKey.sent).toHaveLength(2);
  });

  it("PUT and DELETE are retried without one (idempotent methods)", async () => {
    const { api, sent } = client([problem(503, "unavailable"), new Response(null, { status: 204 })], { baseDelayMs: 1 });
    expect((await api.DELETE("/v1/quizzes/{id}", { params: { path: { id: quiz.id } } })).response.status).toBe(204);
    expect(sent).toHaveLength(2);
  });
});

describe("X-D1-Bookmark", () => {
  it("echoes the latest bookmark received, and a caller's own wins", async () => {
    const older = "00000000-00000002-00000000-00000000000000000000000000000000";
    const newer = "00000000-00000005-00000000-00000000000000000000000000000000";
    const { api, sent } = client([
      json(201, quiz, { "X-D1-Bookmark": newer }),
      json(200, quiz, { "X-D1-Bookmark": older }),
      json(200, quiz),
      json(200, quiz),
    ]);
    const get = { params: { path: { id: quiz.id } } };
    await api.POST("/v1/quizzes", { body: { title: "A" } });
    await api.GET("/v1/quizzes/{id}", get);
    await api.GET("/v1/quizzes/{id}", get);
    await api.GET("/v1/quizzes/{id}", { ...get, headers: { "X-D1-Bookmark": older } });
    expect(sent.map((s) => s.headers.get("X-D1-Bookmark"))).toEqual([null, newer, newer, older]);
  });
});
