import type { Context, MiddlewareHandler } from "hono";
import { lookupApiKey } from "../auth/api-keys";
import { identifyCredential, invalidCredential, missingCredential } from "../auth/credentials";
import { readAccessToken } from "../auth/oauth-tokens";
import { isolateUsage } from "../auth/usage";
import type { AppEnv, Credential } from "../env";
import { config } from "../lib/config";
import { ApiError } from "../lib/errors";
import { laterVia } from "../lib/time";
import { refuseIpOverBudget } from "./rate-limit";

/** The caller's credential, or the ApiError that says why there is none. */
async function identify(c: Context<AppEnv>): Promise<Credential | ApiError> {
  try {
    const given = identifyCredential({ apiKey: c.req.header("x-api-key"), authorization: c.req.header("authorization") });
    if (given instanceof ApiError) return given;
    if (given.type === "access_token") {
      refuseIpOverBudget(c);
      const token = await readAccessToken(c.env.KV, given.token);
      if (!token) return invalidCredential("The access token is invalid, expired or revoked.");
      return {
        type: "access_token",
        id: token.client_id,
        scopes: token.scopes,
        expires_at: new Date(token.exp * 1000).toISOString(),
        grant_id: token.family_id,
      };
    }
    const key = await lookupApiKey(
      c.env.KV,
      c.var.db,
      given.key,
      laterVia((p) => c.executionCtx.waitUntil(p)),
      () => refuseIpOverBudget(c),
    );
    if (!key || key.revoked) return invalidCredential("The API key is unknown or revoked.");
    if (key.expires_at !== null && key.expires_at <= new Date().toISOString())
      return invalidCredential("The API key has expired.");
    return { type: "api_key", id: key.id, scopes: key.scopes, expires_at: key.expires_at };
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/**
 * The first step of the /v1 guard: finds the caller's credential (an API key costs nothing when
 * this isolate saw it in the last 10 s, else one KV read; an access token one KV read) and sets
 * `c.var.credential`, or remembers why there is none, so that the rate limiter can count the caller by credential or by IP before
 * `requireCredential` refuses it. Also counts each API key's use (written behind, see usage.ts).
 */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const outcome = await identify(c);
    if (outcome instanceof ApiError) {
      c.set("authFailure", outcome);
      return next();
    }
    c.set("credential", outcome);
    try {
      await next();
    } finally {
      if (outcome.type === "api_key")
        isolateUsage.record(
          c.var.db,
          outcome.id,
          c.res.status >= 400,
          laterVia((p) => c.executionCtx.waitUntil(p)),
          config(c.env).usageFlushMs,
        );
    }
  };
}

/** The last step of the /v1 guard: no credential, no entry (401, or 400 for conflicting headers). */
export function requireCredential(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get("credential")) throw c.get("authFailure") ?? missingCredential();
    await next();
  };
}
