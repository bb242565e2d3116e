import type { Context } from "hono";
import { lookupApiKey } from "../auth/api-keys";
import { identifyCredential, invalidCredential } from "../auth/credentials";
import { readAccessToken } from "../auth/oauth-tokens";
import { isolateUsage } from "../auth/usage";
import type { AppEnv, Credential } from "../env";
import { config } from "../lib/config";
import { ApiError } from "../lib/errors";
import { laterVia } from "../lib/time";
import { LEARNER_SCOPES, REPORT_SCOPES } from "../sessions/allowed-operations";
import { readLearnerSession } from "../sessions/learner-sessions";
import { readReportSession } from "../sessions/report-sessions";
import { refuseIpOverBudget } from "./rate-limit";

/**
 * The caller's credential, or the ApiError that says why there is none (none sent, malformed,
 * unknown, revoked, expired, or conflicting headers). An API key costs nothing when this isolate
 * saw it in the last 10 s, else one KV read (then D1); an access token one KV read. A client IP
 * already over its budget is refused just before such a lookup (rate-limit.ts).
 */
export async function identify(c: Context<AppEnv>): Promise<Credential | ApiError> {
  try {
    const given = identifyCredential({ apiKey: c.req.header("x-api-key"), authorization: c.req.header("authorization") });
    if (given instanceof ApiError) return given;
    if (given.type === "learner_token" || given.type === "report_token") {
      refuseIpOverBudget(c);
      return await sessionCredential(c.env.DB, given.type, given.token);
    }
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
      c.get("db"),
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
 * A learner or report token's credential: one D1 read of the primary (src/sessions/), nothing
 * cached, so a revocation holds for the next request everywhere. Its scopes are the ones its
 * session's table of operations lets it use (sessions/allowed-operations.ts).
 */
async function sessionCredential(d1: D1Database, type: "learner_token" | "report_token", token: string) {
  if (type === "learner_token") {
    const grant = await readLearnerSession(d1, token);
    if (grant === "expired") return invalidCredential("The learner token has expired.");
    if (!grant) return invalidCredential("The learner token is unknown or revoked.");
    const credential: Credential = {
      type: "learner_session",
      id: grant.sessionId,
      scopes: LEARNER_SCOPES,
      expires_at: grant.expiresAt,
      learner: grant,
    };
    return credential;
  }
  const grant = await readReportSession(d1, token);
  if (grant === "expired") return invalidCredential("The report token has expired.");
  if (!grant) return invalidCredential("The report token is unknown or revoked.");
  const credential: Credential = {
    type: "report_session",
    id: grant.sessionId,
    scopes: REPORT_SCOPES,
    expires_at: grant.expiresAt,
    report: grant,
  };
  return credential;
}

/**
 * Counts one use of an API key once its answer is known, failed or not (written behind, see
 * usage.ts).
 */
export function recordKeyUse(c: Context<AppEnv>, keyId: string, failed: boolean): void {
  isolateUsage.record(
    c.get("db"),
    keyId,
    failed,
    laterVia((p) => c.executionCtx.waitUntil(p)),
    config(c.env).usageFlushMs,
  );
}
