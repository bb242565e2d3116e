import type { Context, MiddlewareHandler } from "hono";
import { type RateLimitDecision, rateLimitHeaders } from "../domain/rate-limit";
import type { AppEnv, Credential } from "../env";
import { config, type RateLimitPolicy } from "../lib/config";
import { ApiError, OAuthError } from "../lib/errors";
import { laterVia } from "../lib/time";
import { kvRateLimiter } from "../rate-limit/kv-rate-limiter";

/** Cloudflare sets CF-Connecting-IP to the client's address; local runs may lack it. */
const clientIp = (c: Context) => c.req.header("cf-connecting-ip") ?? "unknown";

async function hit(c: Context<AppEnv>, subject: string, policy: RateLimitPolicy) {
  const decision = await kvRateLimiter(c.env.KV).hit(
    subject,
    policy,
    laterVia((p) => c.executionCtx.waitUntil(p)),
  );
  const headers = rateLimitHeaders(policy, decision);
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return { decision, headers };
}

const rateLimited = (policy: RateLimitPolicy, decision: RateLimitDecision, headers: Record<string, string>) =>
  new ApiError(
    "rate_limited",
    `Rate limit of ${policy.limit} requests per ${policy.windowSeconds} s reached; retry after ${decision.resetSeconds} s.`,
    { headers },
  );

/**
 * Refusal is cheap: a client IP already over its budget for requests without a valid credential
 * is refused before its credential is looked up in KV or D1 (the check reads isolate memory
 * only). Called by authentication just before such a lookup; a credential this isolate already
 * knows is not looked up, so it is not refused here.
 */
export function refuseIpOverBudget(c: Context<AppEnv>): void {
  const policy = config(c.env).rateLimits.anonymous;
  const decision = kvRateLimiter(c.env.KV).peek(`ip:${clientIp(c)}`, policy);
  if (decision && !decision.allowed) throw rateLimited(policy, decision, rateLimitHeaders(policy, decision));
}

/**
 * /v1: counts the request per credential once identified, else per client IP (which also slows
 * key guessing), and refuses it past the limit. Runs after the caller is identified and before a
 * missing credential is refused.
 */
export async function countCaller(c: Context<AppEnv>, credential: Credential | undefined): Promise<void> {
  const { rateLimits } = config(c.env);
  const policy = credential ? rateLimits.default : rateLimits.anonymous;
  const { decision, headers } = await hit(c, credential ? credential.id : `ip:${clientIp(c)}`, policy);
  if (!decision.allowed) throw rateLimited(policy, decision, headers);
}

/**
 * /oauth/token, /oauth/revoke and /oauth/introspect, per client IP under one "token" policy,
 * refused in RFC 6749 form (temporarily_unavailable, written by onError).
 */
export function rateLimitOAuthEndpoints(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const policy = config(c.env).rateLimits.token;
    const { decision, headers } = await hit(c, `ip:${clientIp(c)}`, policy);
    if (!decision.allowed)
      throw new OAuthError(
        "temporarily_unavailable",
        `Too many token requests; retry after ${decision.resetSeconds} s.`,
        429,
        headers,
      );
    await next();
  };
}
