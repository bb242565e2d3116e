import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { confirmApiKeys, lookupApiKey, refreshApiKeyCache } from "../../src/auth/api-keys";
import { UsageCounter } from "../../src/auth/usage";
import { apiKeys } from "../../src/db/auth-schema";
import type { Database } from "../../src/env";
import { config } from "../../src/lib/config";
import { type CountingEnv, countingEnv } from "../support/binding-counter";
import { seedApiKey } from "../support/call";
import { simulateCredential } from "../support/credential-simulation";
import { VirtualClock } from "../support/virtual-clock";

/**
 * API-key usage (src/auth/usage.ts) and what one credential's traffic costs in the background,
 * played on a virtual clock against the real local D1 and KV with the deployed settings
 * (USAGE_FLUSH_SECONDS 55, the default limit of 600 a minute); the rest of the suite runs with a
 * 1 s flush (vitest.config.ts).
 */

const FLUSH_MS = config({}).usageFlushMs;
const dbOf = (counted: CountingEnv): Database => drizzle(counted.env.DB) as Database;
const DEFAULT_POLICY = config({}).rateLimits.default;

async function usageOf(id: string) {
  return env.DB.prepare("SELECT total_requests, last_used_at FROM api_keys WHERE id = ?1").bind(id).first<{
    total_requests: number;
    last_used_at: string | null;
  }>();
}

const d1Calls = (counted: CountingEnv) => counted.log.filter((c) => c.kind === "d1");

describe("usage is written behind, within 60 s", () => {
  it("the deployed default holds usage at most 55 s; a var over 55 s or malformed falls back to it", () => {
    expect(FLUSH_MS).toBe(55_000);
    expect(config({ USAGE_FLUSH_SECONDS: "2" }).usageFlushMs).toBe(2000);
    expect(config({ USAGE_FLUSH_SECONDS: "60" }).usageFlushMs).toBe(55_000);
    expect(config({ USAGE_FLUSH_SECONDS: "soon" }).usageFlushMs).toBe(55_000);
  });

  it("requests followed by silence are written by the first tick after them, in one batch", async () => {
    const { id } = await seedApiKey(["quizzes:read"]);
    const counted = countingEnv(env);
    const clock = new VirtualClock(1_800_000_000_000);
    const usage = new UsageCounter(clock.read);
    usage.record(dbOf(counted), id, false, clock.later, FLUSH_MS);
    await clock.advanceTo(1_800_000_004_000);
    usage.record(dbOf(counted), id, true, clock.later, FLUSH_MS);
    await clock.advanceTo(1_800_000_008_999);
    expect((await usageOf(id))?.total_requests).toBe(0);
    // The tick armed by the first request finds no later one armed: the traffic may have stopped.
    await clock.advanceTo(1_800_000_009_000);
    expect(await usageOf(id)).toEqual({ total_requests: 2, last_used_at: "2027-01-15T08:00:04.000Z" });
    const day = await env.DB.prepare("SELECT requests, errors FROM api_key_usage WHERE key_id = ?1").bind(id).first();
    expect(day).toEqual({ requests: 2, errors: 1 });
    expect(d1Calls(counted)).toHaveLength(1);
    expect(d1Calls(counted)[0]?.detail).toMatch(/^batch: /);
    expect(counted.counts).toMatchObject({ kvReads: 0, kvWrites: 0 });
  });

  it("steady traffic: every request is in D1 within 55 s of it, in one write batch a minute or so", async () => {
    const { id } = await seedApiKey(["quizzes:read"]);
    const counted = countingEnv(env);
    const start = 1_800_000_000_000;
    const clock = new VirtualClock(start);
    const usage = new UsageCounter(clock.read);
    let oldestLate = 0;
    for (let second = 0; second < 180; second++) {
      await clock.advanceTo(start + second * 1000);
      usage.record(dbOf(counted), id, false, clock.later, FLUSH_MS);
      // Requests made 55 s ago or earlier must all be counted by now.
      const written = (await usageOf(id))?.total_requests ?? 0;
      oldestLate = Math.max(oldestLate, second + 1 - 55 - written);
    }
    expect(oldestLate).toBeLessThanOrEqual(0);
    await clock.advanceTo(start + 240_000);
    expect((await usageOf(id))?.total_requests).toBe(180);
    const writes = d1Calls(counted).filter((c) => c.detail.startsWith("batch: "));
    // 180 s of traffic: a write at most every 55 s (the tick before the deadline), and the tail's.
    expect(writes.length).toBeGreaterThanOrEqual(4);
    expect(writes.length).toBeLessThanOrEqual(5);
  });
});

/** A fresh key's traffic at `rate` requests a second, counted: the deployed usage delay. */
async function play(rate: number, seconds: number, limit: number, start?: number) {
  const { key, id } = await seedApiKey(["quizzes:read"]);
  const counted = countingEnv(env);
  const outcome = await simulateCredential({
    kv: counted.env.KV,
    db: dbOf(counted),
    key,
    keyId: id,
    rate,
    seconds,
    policy: { ...DEFAULT_POLICY, limit },
    usageFlushMs: FLUSH_MS,
    start,
  });
  return { id, counted, outcome };
}

describe("one credential's background cost (the deployed settings, a virtual clock)", () => {
  it("1 request/s for 2 minutes: a usage write a minute or so, the key read every 9 s, one counter read per window, no KV write but the key's cache fill", async () => {
    const { id, counted, outcome } = await play(1, 120, DEFAULT_POLICY.limit);
    expect(outcome).toEqual({ requests: 120, admitted: 120, refused: 0, unknown: 0 });
    const keyReads = counted.log.filter((c) => c.kind === "kvReads" && c.detail.startsWith("v1:apikey:"));
    const counterReads = counted.log.filter((c) => c.kind === "kvReads" && c.detail.startsWith("v1:rl:"));
    // The key: read once (cold), then confirmed from D1 every 9 s, so never read from KV again.
    expect(keyReads).toHaveLength(1);
    // 120 s starting 17 s into a window touch 3 windows.
    expect(counterReads).toHaveLength(3);
    expect(counted.log.filter((c) => c.kind === "kvWrites").map((c) => c.detail.split(":")[1])).toEqual(["apikey"]);
    // One D1 query for the cold key, then one call per 9 s of traffic (129 s with the tail's
    // tick): ceil(129 / 9) = 15 at most, of which the usage writes: one before each 55 s deadline
    // and the tail's.
    const batches = d1Calls(counted).filter((c) => c.detail.startsWith("batch: "));
    expect(d1Calls(counted).length).toBeLessThanOrEqual(1 + 15);
    expect(batches).toHaveLength(3);
    expect((await usageOf(id))?.total_requests).toBe(120);
  });

  it("1 000 requests/s for a minute, limit 60 000 a minute: every request counted, a few dozen KV writes", async () => {
    const { id, counted, outcome } = await play(1000, 60, 60_000, 1_800_000_000_000); // one whole window
    expect(outcome).toEqual({ requests: 60_000, admitted: 60_000, refused: 0, unknown: 0 });
    const counterWrites = counted.log.filter((c) => c.kind === "kvWrites" && c.detail.startsWith("v1:rl:"));
    // Quiet below 30 000 (a write per 7 500), then busy: a write a second for the second half.
    expect(counterWrites.length).toBeGreaterThanOrEqual(30);
    expect(counterWrites.length).toBeLessThanOrEqual(36);
    expect(Number(await env.KV.get(`v1:rl:default:${id}:1800000000000`))).toBe(60_000);
    // Usage: one write before the 55 s deadline, and the tail's.
    expect(d1Calls(counted).filter((c) => c.detail.startsWith("batch: "))).toHaveLength(2);
    expect((await usageOf(id))?.total_requests).toBe(60_000);
  }, 60_000);
});

describe("the ticks keep the isolate's copy of a key current", () => {
  it("a revocation made elsewhere (straight in D1) reaches an isolate using the key within 10 s, with no KV read", async () => {
    const { key, id } = await seedApiKey(["quizzes:read"]);
    const counted = countingEnv(env);
    const clock = new VirtualClock(Date.now());
    const db = dbOf(counted);
    const usage = new UsageCounter(clock.read);
    expect((await lookupApiKey(counted.env.KV, db, key, clock.later, () => {}, clock.now))?.revoked).toBe(false);
    usage.record(db, id, false, clock.later, FLUSH_MS);
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ?1 WHERE id = ?2").bind(new Date().toISOString(), id).run();
    await clock.advanceTo(clock.now + 10_000);
    counted.reset();
    expect((await lookupApiKey(counted.env.KV, db, key, clock.later, () => {}, clock.now))?.revoked).toBe(true);
    expect(counted.counts).toMatchObject({ kvReads: 0, d1: 0 });
  });

  it("a flush that read before a change made through this isolate does not undo it", async () => {
    const { key, id } = await seedApiKey(["quizzes:read"]);
    const db = drizzle(env.DB) as Database;
    const [current] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
    if (!current) throw new Error("the key was not seeded");
    const clock = new VirtualClock(Date.now());
    const flushReadAt = Date.now() - 1000; // a usage flush sent its batch a second ago …
    await refreshApiKeyCache(env.KV, { ...current, revokedAt: new Date().toISOString() }); // … then the key was revoked here
    confirmApiKeys([current], flushReadAt); // … and the flush's answer, from before the revocation, arrives
    expect((await lookupApiKey(env.KV, db, key, clock.later))?.revoked).toBe(true);
    // A flush that read after the change confirms it.
    confirmApiKeys([{ ...current, revokedAt: new Date().toISOString() }], Date.now() + 1);
    expect((await lookupApiKey(env.KV, db, key, clock.later))?.revoked).toBe(true);
  });
});
