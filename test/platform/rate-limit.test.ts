import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { decide, windowStart } from "../../src/domain/rate-limit";
import { laterVia } from "../../src/lib/time";
import { KvRateLimiter, quietShare } from "../../src/rate-limit/kv-rate-limiter";
import { countingEnv } from "../support/binding-counter";
import { BASE, expectProblem, seedApiKey } from "../support/call";
import { VirtualClock } from "../support/virtual-clock";

const background: Promise<void>[] = [];
afterAll(() => Promise.all(background));

/**
 * Calls the app with some vars overridden, as wrangler.toml's [vars] would set them. Work left
 * for after the response (counter writes, usage flushes) goes on in the background.
 */
async function fetchWith(vars: Partial<Env>, path: string, init: RequestInit = {}, bindings: Env = env) {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(`${BASE}${path}`, init), { ...bindings, ...vars }, ctx);
  const text = await response.text();
  background.push(waitOnExecutionContext(ctx));
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the start of a new window, so that a test's requests all fall in one window. */
async function freshWindow(windowSeconds: number) {
  const next = windowStart(Date.now(), windowSeconds) + windowSeconds * 1000;
  if (next - Date.now() < 800) await until(next - Date.now() + 20);
}

describe("rate limits on /v1", () => {
  it("the N+1th request in a window → 429 with Retry-After; the headers count down", async () => {
    const { key } = await seedApiKey(["quizzes:read"]);
    const vars = { RATE_LIMIT_REQUESTS: "5", RATE_LIMIT_WINDOW_SECONDS: "60" };
    await freshWindow(60);
    for (let i = 0; i < 5; i++) {
      const res = await fetchWith(vars, "/v1/quizzes", bearer(key));
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"default";q=5;w=60');
      expect(res.headers.get("ratelimit")).toMatch(new RegExp(`^"default";r=${4 - i};t=\\d+$`));
    }
    const limited = await fetchWith(vars, "/v1/quizzes", bearer(key));
    const problem = expectProblem(limited, 429, "rate_limited");
    expect(problem.detail).toMatch(/retry after/i);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get("ratelimit")).toBe(`"default";r=0;t=${retryAfter}`);
  });

  it("a new window starts the count again", async () => {
    const { key } = await seedApiKey(["quizzes:read"]);
    const vars = { RATE_LIMIT_REQUESTS: "2", RATE_LIMIT_WINDOW_SECONDS: "1" };
    await freshWindow(1);
    expect((await fetchWith(vars, "/v1/quizzes", bearer(key))).status).toBe(200);
    expect((await fetchWith(vars, "/v1/quizzes", bearer(key))).status).toBe(200);
    expect((await fetchWith(vars, "/v1/quizzes", bearer(key))).status).toBe(429);
    await until(windowStart(Date.now(), 1) + 1000 - Date.now() + 20);
    const res = await fetchWith(vars, "/v1/quizzes", bearer(key));
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit")).toMatch(/^"default";r=1;t=1$/);
  });

  it("credentials are limited independently", async () => {
    const a = await seedApiKey(["quizzes:read"]);
    const b = await seedApiKey(["quizzes:read"]);
    const vars = { RATE_LIMIT_REQUESTS: "3" };
    await freshWindow(60);
    for (let i = 0; i < 3; i++) expect((await fetchWith(vars, "/v1/quizzes", bearer(a.key))).status).toBe(200);
    expect((await fetchWith(vars, "/v1/quizzes", bearer(a.key))).status).toBe(429);
    expect((await fetchWith(vars, "/v1/quizzes", bearer(b.key))).status).toBe(200);
  });

  it("requests without a valid credential are limited per client IP, before their 401", async () => {
    const vars = { ANONYMOUS_RATE_LIMIT_REQUESTS: "2" };
    const from = (ip: string) => ({ headers: { "cf-connecting-ip": ip } });
    await freshWindow(60);
    const first = await fetchWith(vars, "/v1/quizzes", from("203.0.113.7"));
    expectProblem(first, 401, "unauthorized");
    expect(first.headers.get("ratelimit-policy")).toBe('"anonymous";q=2;w=60');
    expectProblem(await fetchWith(vars, "/v1/quizzes", from("203.0.113.7")), 401);
    expectProblem(await fetchWith(vars, "/v1/quizzes", from("203.0.113.7")), 429, "rate_limited");
    expectProblem(await fetchWith(vars, "/v1/quizzes", from("203.0.113.8")), 401);
  });

  it("every /v1 response carries the headers, errors included", async () => {
    const { key } = await seedApiKey(["quizzes:read"]);
    const res = await fetchWith({}, "/v1/quizzes/quiz_00000000000000000000000000", bearer(key));
    expectProblem(res, 404);
    expect(res.headers.get("ratelimit-policy")).toMatch(/^"default";q=\d+;w=\d+$/);
    expect(res.headers.get("ratelimit")).toMatch(/^"default";r=\d+;t=\d+$/);
  });
});

describe("rate limit on /oauth/token", () => {
  it("is per client IP and answers 429 temporarily_unavailable in RFC 6749 form", async () => {
    const vars = { TOKEN_RATE_LIMIT_REQUESTS: "3" };
    const post = (ip: string) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": ip },
      body: "grant_type=client_credentials&client_id=cli_00000000000000000000000000&client_secret=nope",
    });
    await freshWindow(60);
    for (let i = 0; i < 3; i++) expect((await fetchWith(vars, "/oauth/token", post("198.51.100.1"))).status).toBe(401);
    const limited = await fetchWith(vars, "/oauth/token", post("198.51.100.1"));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")).toMatch(/^application\/json/);
    expect(limited.json.error).toBe("temporarily_unavailable");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("cache-control")).toBe("no-store");
    expect((await fetchWith(vars, "/oauth/token", post("198.51.100.2"))).status).toBe(401);
  });
});

describe("rate limit on /oauth/revoke and /oauth/introspect", () => {
  it("shares the per-IP token policy: secret guessing there is slowed too", async () => {
    const vars = { TOKEN_RATE_LIMIT_REQUESTS: "2" };
    const post = () => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": "198.51.100.9" },
      body: "token=x&client_id=cli_00000000000000000000000000&client_secret=nope",
    });
    await freshWindow(60);
    expect((await fetchWith(vars, "/oauth/revoke", post())).status).toBe(401);
    expect((await fetchWith(vars, "/oauth/introspect", post())).status).toBe(401);
    const limited = await fetchWith(vars, "/oauth/revoke", post());
    expect(limited.status).toBe(429);
    expect(limited.json.error).toBe("temporarily_unavailable");
  });
});

describe("KV cost of the limiter", () => {
  const later = (pending: Promise<unknown>[]) => laterVia((p) => pending.push(p));

  it("a caller under half its limit costs one KV read per window and no write, at any rate", async () => {
    const counted = countingEnv(env);
    const clock = new VirtualClock(1_800_000_000_000); // the start of a 60 s window
    const limiter = new KvRateLimiter(counted.env.KV, clock.read, new Map());
    const policy = { name: "default", limit: 600, windowSeconds: 60 };
    // 1 request a second for three windows: 60 a window, a tenth of the limit.
    for (let i = 0; i < 180; i++) {
      await clock.advanceTo(1_800_000_000_000 + i * 1000);
      const decision = await limiter.hit("key_quiet", policy, clock.later);
      expect(decision.remaining).toBe(600 - (i % 60) - 1);
    }
    await clock.advanceTo(1_800_000_240_000);
    expect(counted.counts).toMatchObject({ kvReads: 3, kvWrites: 0 });
  });

  it("quiet: an isolate publishes once it holds an eighth of the limit, re-reading first", async () => {
    const counted = countingEnv(env);
    const start = 1_800_000_300_000;
    const clock = new VirtualClock(start);
    const limiter = new KvRateLimiter(counted.env.KV, clock.read, new Map());
    const policy = { name: "default", limit: 800, windowSeconds: 60 };
    expect(quietShare(policy.limit)).toBe(100);
    const key = `v1:rl:default:key_share:${start}`;
    for (let i = 0; i < 99; i++) await limiter.hit("key_share", policy, clock.later);
    await clock.advanceTo(start + 2000);
    expect(counted.counts).toMatchObject({ kvReads: 1, kvWrites: 0 });
    await env.KV.put(key, "150"); // other isolates published 150
    await limiter.hit("key_share", policy, clock.later); // the 100th held back: publish
    await clock.advanceTo(start + 4000);
    expect(counted.counts).toMatchObject({ kvReads: 2, kvWrites: 1 });
    expect(Number(await env.KV.get(key))).toBe(250);
    const next = await limiter.hit("key_share", policy, clock.later);
    expect(next.remaining).toBe(800 - 250 - 1);
  });

  it("busy (from half the limit on): 1 000 requests in one second cost one KV read and at most 2 KV writes, and every one is published", async () => {
    const counted = countingEnv(env);
    let now = 1_800_000_000_000; // the start of a 60 s window
    const limiter = new KvRateLimiter(counted.env.KV, () => now, new Map());
    const pending: Promise<unknown>[] = [];
    const policy = { name: "default", limit: 1200, windowSeconds: 60 };
    for (let i = 0; i < 1000; i++) {
      now = 1_800_000_000_000 + i; // 1 000 requests spread over 999 ms
      const decision = await limiter.hit("key_cost", policy, later(pending));
      expect(decision.remaining).toBe(1200 - i - 1);
    }
    await Promise.all(pending);
    expect(counted.counts.kvReads).toBe(1);
    expect(counted.counts.kvWrites).toBeLessThanOrEqual(2);
    expect(Number(await env.KV.get(`v1:rl:default:key_cost:${1_800_000_000_000}`))).toBe(1000);
  });

  it("busy: a counter is re-read after the response, not before it", async () => {
    const counted = countingEnv(env);
    let now = 1_800_000_060_000;
    const key = `v1:rl:default:key_refresh:${1_800_000_060_000}`;
    const counters = new Map();
    const pending: Promise<unknown>[] = [];
    const policy = { name: "default", limit: 100, windowSeconds: 60 };
    const hit = () => new KvRateLimiter(counted.env.KV, () => now, counters).hit("key_refresh", policy, later(pending));
    await env.KV.put(key, "60"); // other isolates counted 60: past half the limit
    await hit(); // cold: read before deciding
    expect(counted.counts.kvReads).toBe(1);
    await Promise.all(pending); // its write-behind: the shared count is 61
    expect(Number(await env.KV.get(key))).toBe(61);
    await env.KV.put(key, "80"); // other isolates counted 19 more
    now += 1500;
    const stale = await hit(); // decided from memory; the refresh runs after
    expect(stale.remaining).toBe(100 - 61 - 1);
    await Promise.all(pending);
    expect(counted.counts.kvReads).toBe(2);
    const fresh = await hit();
    expect(fresh.remaining).toBe(100 - 81 - 1); // 80 shared + the stale request + this one
    expect(Number(await env.KV.get(key))).toBe(81);
  });

  it("through the worker: at most one KV read per request for the limiter, over 300 warm requests", async () => {
    const { key } = await seedApiKey(["quizzes:read"]);
    const counted = countingEnv(env);
    await fetchWith({}, "/v1/auth/verify", bearer(key), counted.env); // warm the key cache
    counted.reset();
    const started = Date.now();
    const n = 300;
    for (let i = 0; i < n; i += 30) {
      await Promise.all(Array.from({ length: 30 }, () => fetchWith({}, "/v1/auth/verify", bearer(key), counted.env)));
    }
    const seconds = Math.ceil((Date.now() - started) / 1000);
    // The key is verified from memory; the counter, far under its limit, was read once.
    expect(counted.counts.kvReads).toBeLessThanOrEqual(seconds + 1);
    expect(counted.counts.d1).toBeLessThanOrEqual(1); // the usage flush, if it fell in the run
  });

  it("decide: the count before this request against the limit", () => {
    const policy = { name: "default", limit: 2, windowSeconds: 60 };
    expect(decide(0, policy, 0)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
    expect(decide(1, policy, 59_500)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 1 });
    expect(decide(2, policy, 30_000)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 30 });
  });
});
