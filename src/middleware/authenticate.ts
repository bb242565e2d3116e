import type { Context, MiddlewareHandler } from "hono";
import { lookupApiKey } from "../auth/api-keys";
import { readAccessToken } from "../auth/oauth-tokens";
import { recordUsage } from "../auth/usage";
import { ACCESS_TOKEN_PREFIX, API_KEY_PREFIX, isWellFormedApiKey } from "../domain/credential-format";
import type { AppEnv, Credential } from "../env";
import { ApiError } from "../lib/errors";
import { REALM } from "../lib/scopes";
import { refuseIpOverBudget } from "./rate-limit";

/** RFC 6750 §3: a 401 without error details when no credential came, with them otherwise. */
const missing = () =>
  new ApiError(401, "unauthorized", "Send an API key (X-API-Key or Authorization: Bearer) or an OAuth access token.", {
    headers: { "WWW-Authenticate": `Bearer realm="${REALM}"` },
  });

const invalid = (description: string) =>
  new ApiError(401, "invalid_token", description, {
    headers: { "WWW-Authenticate": `Bearer realm="${REALM}", error="invalid_token", error_description="${description}"` },
  });

/** Reads the credential from the request's headers; undefined when there is none. */
function presented(headers: {
  apiKey?: string;
  authorization?: string;
}): { value: string; via: "x-api-key" | "bearer" } | undefined {
  let bearer: string | undefined;
  if (headers.authorization !== undefined) {
    const match = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(headers.authorization);
    if (!match?.[1]) throw invalid("The Authorization header must be Bearer <token>.");
    bearer = match[1];
  }
  const apiKey = headers.apiKey?.trim();
  if (apiKey !== undefined && bearer !== undefined && apiKey !== bearer)
    throw new ApiError(400, "conflicting_credentials", "X-API-Key and Authorization carry different credentials; send one.");
  if (apiKey !== undefined) return { value: apiKey, via: "x-api-key" };
  if (bearer !== undefined) return { value: bearer, via: "bearer" };
  return undefined;
}

/** The caller's credential, or the ApiError that says why there is none. */
async function identify(c: Context<AppEnv>): Promise<Credential | ApiError> {
  try {
    const given = presented({ apiKey: c.req.header("x-api-key"), authorization: c.req.header("authorization") });
    if (!given) return missing();
    if (given.value.startsWith(ACCESS_TOKEN_PREFIX)) {
      if (given.via === "x-api-key")
        return invalid("X-API-Key carries API keys only; send access tokens as Authorization: Bearer.");
      refuseIpOverBudget(c);
      const token = await readAccessToken(c.env.KV, given.value);
      if (!token) return invalid("The access token is invalid, expired or revoked.");
      return {
        type: "access_token",
        id: token.client_id,
        scopes: token.scopes,
        expires_at: new Date(token.exp * 1000).toISOString(),
        grant_id: token.family_id,
      };
    }
    // The checksum refuses mistyped and made-up keys before any lookup.
    if (!given.value.startsWith(API_KEY_PREFIX) || !isWellFormedApiKey(given.value))
      return invalid("The credential is not a well-formed API key or access token.");
    const key = await lookupApiKey(
      c.env.KV,
      c.var.db,
      given.value,
      (p) => c.executionCtx.waitUntil(p),
      () => refuseIpOverBudget(c),
    );
    if (!key || key.revoked) return invalid("The API key is unknown or revoked.");
    if (key.expires_at !== null && key.expires_at <= new Date().toISOString()) return invalid("The API key has expired.");
    return { type: "api_key", id: key.id, scopes: key.scopes, expires_at: key.expires_at };
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/**
 * The first step of the /v1 guard: finds the caller's credential (an API key costs nothing when
 * this isolate saw it in the last 10 s, else one KV read; an access token one KV read) and sets `c.var.credential`, or remembers why there
 * is none, so that the rate limiter can count the caller by credential or by IP before
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
      if (outcome.type === "api_key") recordUsage(c.var.db, outcome.id, c.res.status >= 400, (p) => c.executionCtx.waitUntil(p));
    }
  };
}

/** The last step of the /v1 guard: no credential, no entry (401, or 400 for conflicting headers). */
export function requireCredential(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get("credential")) throw c.get("authFailure") ?? missing();
    await next();
  };
}
