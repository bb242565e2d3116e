import { type RateLimitDecision, type RateLimitPolicy, decide, windowStart } from "../domain/rate-limit";
import { kvKeys, kvTtl } from "../lib/kv-keys";
import type { RateLimiter } from "./rate-limiter";

/** KV accepts one write per second to a key; this isolate never writes a counter more often. */
export const KV_MIN_WRITE_INTERVAL_MS = 1000;
/** Counters kept in isolate memory before those of ended windows are dropped. */
const MAX_COUNTERS = 10_000;
/** How long the isolate trusts its view of a counter before reading KV again for other isolates' counts. */
export const COUNTER_REFRESH_MS = 1000;

interface Counter {
  key: string;
  windowStart: number;
  windowSeconds: number;
  /** The shared count as this isolate last read or wrote it. */
  known: number;
  /** Requests admitted here since the last write. */
  unwritten: number;
  readAt: number;
  writtenAt: number;
  flushScheduled: boolean;
}

/**
 * A fixed-window counter per subject, kept in isolate memory and written behind to KV.
 *
 * - Hot path: at most one KV read per request, and none while the isolate's view is younger
 *   than COUNTER_REFRESH_MS.
 * - Writes: the isolate's total (shared count + its own new requests) at most once per second
 *   per key, after the response (waitUntil), with an expiration past the window's end.
 * - Exact within one isolate. Across isolates the shared count is last-writer-wins, so requests
 *   counted by two isolates in the same second can be lost, and KV takes up to ~60 s to carry a
 *   count to other locations: the README states the resulting global accuracy.
 */
export class KvRateLimiter implements RateLimiter {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly kv: KVNamespace,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(
    subject: string,
    policy: RateLimitPolicy,
    waitUntil: (promise: Promise<unknown>) => void,
  ): Promise<RateLimitDecision> {
    const now = this.now();
    const start = windowStart(now, policy.windowSeconds);
    const slot = `${policy.name}:${subject}`;
    let counter = this.counters.get(slot);
    if (!counter || counter.windowStart !== start) {
      if (this.counters.size >= MAX_COUNTERS) this.dropEnded(now);
      counter = {
        key: kvKeys.rateLimit(slot, start),
        windowStart: start,
        windowSeconds: policy.windowSeconds,
        known: 0,
        unwritten: 0,
        readAt: 0,
        writtenAt: 0,
        flushScheduled: false,
      };
      this.counters.set(slot, counter);
    }
    if (now - counter.readAt >= COUNTER_REFRESH_MS) {
      const stored = Number(await this.kv.get(counter.key)) || 0;
      counter.known = Math.max(counter.known, stored);
      counter.readAt = now;
    }
    const decision = decide(counter.known + counter.unwritten, policy, now);
    if (decision.allowed) {
      counter.unwritten += 1;
      this.scheduleWrite(counter, now, waitUntil);
    }
    return decision;
  }

  private dropEnded(now: number) {
    for (const [slot, c] of this.counters)
      if (c.windowStart + c.windowSeconds * 1000 <= now && !c.flushScheduled) this.counters.delete(slot);
  }

  private scheduleWrite(counter: Counter, now: number, waitUntil: (promise: Promise<unknown>) => void) {
    if (counter.flushScheduled) return;
    counter.flushScheduled = true;
    const delay = Math.max(counter.writtenAt + KV_MIN_WRITE_INTERVAL_MS - now, 0);
    // Only the request that schedules a write waits for it: a promise must not cross requests.
    waitUntil(
      (delay > 0 ? new Promise((resolve) => setTimeout(resolve, delay)) : Promise.resolve()).then(() =>
        this.write(counter),
      ),
    );
  }

  private async write(counter: Counter) {
    counter.flushScheduled = false;
    if (counter.unwritten === 0) return;
    const total = counter.known + counter.unwritten;
    counter.known = total;
    counter.unwritten = 0;
    counter.writtenAt = this.now();
    const secondsLeft = (counter.windowStart + counter.windowSeconds * 1000 - counter.writtenAt) / 1000;
    try {
      await this.kv.put(counter.key, String(total), { expirationTtl: kvTtl(secondsLeft + 1) });
    } catch (error) {
      // A lost write only makes the limit looser elsewhere; this isolate still counts exactly.
      console.error(JSON.stringify({ level: "warn", message: "rate-limit write failed", error: String(error) }));
    }
  }
}

const limiters = new WeakMap<KVNamespace, KvRateLimiter>();

/** The isolate's limiter for a KV namespace: its counters must outlive a single request. */
export function kvRateLimiter(kv: KVNamespace): KvRateLimiter {
  let limiter = limiters.get(kv);
  if (!limiter) {
    limiter = new KvRateLimiter(kv);
    limiters.set(kv, limiter);
  }
  return limiter;
}
