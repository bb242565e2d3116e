import type { RateLimitDecision } from "../domain/rate-limit";
import type { RateLimitPolicy } from "../lib/config";

/**
 * Counts requests per subject (a credential id or a client IP) and decides. The KV
 * implementation is the default; Cloudflare's Rate Limiting binding or a Durable Object could
 * implement the same interface for a hard global limit.
 */
export interface RateLimiter {
  hit(subject: string, policy: RateLimitPolicy, waitUntil: (promise: Promise<unknown>) => void): Promise<RateLimitDecision>;
}
