import type { RateLimitDecision } from "../domain/rate-limit";
import type { RateLimitPolicy } from "../lib/config";
import type { Later } from "../lib/time";

/**
 * Counts requests per subject (a credential id or a client IP) and decides. The KV
 * implementation is the default; Cloudflare's Rate Limiting binding or a Durable Object could
 * implement the same interface for a hard global limit.
 */
export interface RateLimiter {
  /** Counts a request and decides; work for after the response goes to `later`. */
  hit(subject: string, policy: RateLimitPolicy, later: Later): Promise<RateLimitDecision>;
}
