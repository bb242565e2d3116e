/**
 * Fixed-window rate-limit arithmetic, free of I/O: which window a moment falls in, what a
 * count means for a request, and the IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers).
 */

import type { RateLimitPolicy } from "../lib/config";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
}

export function windowStart(nowMs: number, windowSeconds: number): number {
  const size = windowSeconds * 1000;
  return Math.floor(nowMs / size) * size;
}

/** `count` is the number of requests already admitted in the window, before this one. */
export function decide(count: number, policy: RateLimitPolicy, nowMs: number): RateLimitDecision {
  const end = windowStart(nowMs, policy.windowSeconds) + policy.windowSeconds * 1000;
  const allowed = count < policy.limit;
  return {
    allowed,
    limit: policy.limit,
    remaining: Math.max(policy.limit - count - (allowed ? 1 : 0), 0),
    resetSeconds: Math.max(Math.ceil((end - nowMs) / 1000), 1),
  };
}

export function rateLimitHeaders(policy: RateLimitPolicy, decision: RateLimitDecision): Record<string, string> {
  return {
    "RateLimit-Policy": `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`,
    RateLimit: `"${policy.name}";r=${decision.remaining};t=${decision.resetSeconds}`,
    ...(decision.allowed ? {} : { "Retry-After": String(decision.resetSeconds) }),
  };
}
