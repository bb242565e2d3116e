import { decide, type RateLimitDecision, windowStart } from "../domain/rate-limit";
import type { RateLimitPolicy } from "../lib/config";
import { kvKeys, kvTtl } from "../lib/kv-keys";
import { log } from "../lib/log";
import type { Later } from "../lib/time";
import type { RateLimiter } from "./rate-limiter";

/** KV accepts one write per second to a key; this isolate never writes a counter more often. */
const KV_MIN_WRITE_INTERVAL_MS = 1000;
/** Counters kept in isolate memory before those of ended windows are dropped. */
const MAX_COUNTERS = 10_000;
/** How long the isolate trusts its view of a counter before reading KV again for other isolates' counts. */
const COUNTER_REFRESH_MS = 1000;
/**
 * Below half the limit (as this isolate knows the count) the counter is quiet: the isolate holds
 * back up to an eighth of the limit before it publishes, and does not re-read in between. From
 * half the limit on it is busy: re-read and written every second, as a refusal may be near.
 */
const QUIET_SHARE = 8;

/** Whether this isolate's view of the count is at least half the limit. */
const busy = (counter: Counter, limit: number) => 2 * (counter.known + counter.unwritten) >= limit;

/** What this isolate may hold back unpublished while the counter is quiet. */
export const quietShare = (limit: number) => Math.max(1, Math.ceil(limit / QUIET_SHARE));

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
  syncScheduled: boolean;
}

/**
 * The isolate's counters. They outlive requests; the KV binding does not travel with them:
 * each request's limiter reads and writes through its own env's binding.
 */
const isolateCounters = new Map<string, Counter>();

/**
 * A fixed-window counter per subject, kept in isolate memory and written behind to KV.
 *
 * - Hot path: one KV read the first time the isolate sees a subject in a window, none after.
 * - Quiet (the count this isolate knows is below half the limit): nothing more until the
 *   isolate has admitted an eighth of the limit unpublished; then, after the response, it
 *   re-reads the counter and writes its total on top. A caller well under its limit costs one
 *   KV read per window, whatever its rate.
 * - Busy (half the limit or more): after the response, the counter is re-read when the view is
 *   older than COUNTER_REFRESH_MS and the isolate's total (shared count + its own new requests)
 *   written at most once per second per key, with an expiration past the window's end.
 * - Exact within one isolate. Across isolates the shared count is last-writer-wins, so requests
 *   counted by two isolates in the same second can be lost, and KV takes up to ~60 s to carry a
 *   count to other locations: the README states the resulting global accuracy.
 */
export class KvRateLimiter implements RateLimiter {
  constructor(
    private readonly kv: KVNamespace,
    private readonly now: () => number = Date.now,
    private readonly counters: Map<string, Counter> = isolateCounters,
  ) {}

  async hit(subject: string, policy: RateLimitPolicy, later: Later): Promise<RateLimitDecision> {
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
        syncScheduled: false,
      };
      this.counters.set(slot, counter);
      // The one read on the hot path: this isolate knows nothing yet. If KV fails, count from
      // zero here rather than fail the request: the limit loosens, the service stays up.
      await this.refresh(counter).catch((error: unknown) => warn("rate-limit read failed", error));
    }
    const decision = decide(counter.known + counter.unwritten, policy, now);
    if (decision.allowed) counter.unwritten += 1;
    const due = busy(counter, policy.limit)
      ? counter.unwritten > 0 || now - counter.readAt >= COUNTER_REFRESH_MS
      : counter.unwritten >= quietShare(policy.limit);
    if (due) this.scheduleSync(counter, now, later);
    return decision;
  }

  /**
   * The decision this isolate would make for the subject's next request, from memory only (no
   * KV read, nothing counted); undefined when the isolate has not seen the subject this window.
   */
  peek(subject: string, policy: RateLimitPolicy): RateLimitDecision | undefined {
    const now = this.now();
    const counter = this.counters.get(`${policy.name}:${subject}`);
    if (!counter || counter.windowStart !== windowStart(now, policy.windowSeconds)) return undefined;
    return decide(counter.known + counter.unwritten, policy, now);
  }

  /** Learns what other isolates counted: the shared count never goes down in this view. */
  private async refresh(counter: Counter) {
    const stored = Number(await this.kv.get(counter.key)) || 0;
    counter.known = Math.max(counter.known, stored);
    counter.readAt = this.now();
  }

  private dropEnded(now: number) {
    for (const [slot, c] of this.counters)
      if (c.windowStart + c.windowSeconds * 1000 <= now && !c.syncScheduled) this.counters.delete(slot);
  }

  /**
   * After the response: re-read the counter if this view is stale, then write this isolate's
   * new requests on top of it — no sooner than KV_MIN_WRITE_INTERVAL_MS after the last write.
   * Reading just before writing keeps the window for lost updates between isolates short.
   */
  private scheduleSync(counter: Counter, now: number, later: Later) {
    if (counter.syncScheduled) return;
    counter.syncScheduled = true;
    const delay = counter.unwritten > 0 ? Math.max(counter.writtenAt + KV_MIN_WRITE_INTERVAL_MS - now, 0) : 0;
    // Only the request that schedules the sync waits for it: a promise must not cross requests.
    later(delay, () => this.sync(counter));
  }

  private async sync(counter: Counter) {
    try {
      if (this.now() - counter.readAt >= COUNTER_REFRESH_MS) await this.refresh(counter);
    } catch (error) {
      warn("rate-limit refresh failed", error);
    }
    // From here on, requests admitted meanwhile schedule the next sync themselves.
    counter.syncScheduled = false;
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
      warn("rate-limit write failed", error);
    }
  }
}

const warn = (message: string, error: unknown) => log.warn(message, { error: String(error) });

/** The limiter for one request: the isolate's counters, reached through this request's binding. */
export const kvRateLimiter = (kv: KVNamespace): KvRateLimiter => new KvRateLimiter(kv);
