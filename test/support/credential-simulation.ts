import { lookupApiKey } from "../../src/auth/api-keys";
import { UsageCounter } from "../../src/auth/usage";
import type { Database } from "../../src/env";
import type { RateLimitPolicy } from "../../src/lib/config";
import { KvRateLimiter } from "../../src/rate-limit/kv-rate-limiter";
import { VirtualClock } from "./virtual-clock";

/**
 * What one credential's traffic costs in the background, whatever the endpoint: the work every
 * authenticated /v1 request with an API key does around its handler — the key lookup
 * (src/auth/api-keys.ts), the rate limiter (src/rate-limit/kv-rate-limiter.ts) and usage
 * counting (src/auth/usage.ts) — played on a virtual clock at `rate` requests a second for
 * `seconds`, through the bindings given (wrap them to count), the production code unchanged.
 * Each run starts with cold isolate state of its own (limiter counters, usage counts); the key
 * should be a fresh one, as the API-key memory cache is the isolate's.
 */
export interface CredentialTraffic {
  kv: KVNamespace;
  db: Database;
  /** An API key that exists in D1, and its id. */
  key: string;
  keyId: string;
  rate: number;
  seconds: number;
  policy: RateLimitPolicy;
  usageFlushMs: number;
  /** Only the rate limiter (the token endpoint's per-IP limit): no key lookup, no usage. */
  limiterOnly?: boolean;
  /** Virtual start time, ms (default: 17 s into a window, so that runs cross window starts). */
  start?: number;
}

export interface TrafficOutcome {
  requests: number;
  admitted: number;
  refused: number;
  /** Keys that the lookup did not find (should be 0). */
  unknown: number;
}

export async function simulateCredential(traffic: CredentialTraffic): Promise<TrafficOutcome> {
  const start = traffic.start ?? 1_800_000_017_000;
  const clock = new VirtualClock(start);
  const limiter = new KvRateLimiter(traffic.kv, clock.read, new Map());
  const usage = new UsageCounter(clock.read);
  const requests = Math.round(traffic.rate * traffic.seconds);
  const outcome: TrafficOutcome = { requests, admitted: 0, refused: 0, unknown: 0 };
  for (let i = 0; i < requests; i++) {
    await clock.advanceTo(start + (i * 1000) / traffic.rate);
    if (!traffic.limiterOnly) {
      const record = await lookupApiKey(traffic.kv, traffic.db, traffic.key, clock.later, () => {}, clock.now);
      if (!record) {
        outcome.unknown += 1;
        continue;
      }
    }
    const decision = await limiter.hit(traffic.keyId, traffic.policy, clock.later);
    if (decision.allowed) outcome.admitted += 1;
    else outcome.refused += 1;
    if (!traffic.limiterOnly) usage.record(traffic.db, traffic.keyId, !decision.allowed, clock.later, traffic.usageFlushMs);
  }
  // Whatever the last requests left for after their responses.
  await clock.advanceTo(start + traffic.seconds * 1000 + 60_000);
  return outcome;
}
