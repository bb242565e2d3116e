import type { MiddlewareHandler } from "hono";
import { lookupApiKey } from "../auth/api-keys";
import { readAccessToken } from "../auth/oauth-tokens";
import { recordUsage } from "../auth/usage";
import { ACCESS_TOKEN_PREFIX, API_KEY_PREFIX, isWellFormedApiKey } from "../domain/credential-format";
import type { AppEnv, Credential } from "../env";
import { ApiError } from "../lib/errors";
import { type Scope, hasScope } from "../lib/scopes";

export const REALM = "quiz";

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
function presented(headers: { apiKey?: string; authorization?: string }): { value: string; via: "x-api-key" | "bearer" } | undefined {
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

/**
 * Guards all of /v1: finds the caller's credential and sets `c.var.credential`. An API key costs
 * one KV read when warm; an access token one KV read. Scopes are checked per route (requireScope).
 */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const given = presented({ apiKey: c.req.header("x-api-key"), authorization: c.req.header("authorization") });
    if (!given) throw missing();
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    const now = new Date().toISOString();
    let credential: Credential;

    if (given.value.startsWith(ACCESS_TOKEN_PREFIX)) {
      if (given.via === "x-api-key") throw invalid("X-API-Key carries API keys only; send access tokens as Authorization: Bearer.");
      const token = await readAccessToken(c.env.KV, given.value);
      if (!token) throw invalid("The access token is invalid, expired or revoked.");
      credential = {
        type: "access_token",
        id: token.client_id,
        scopes: token.scopes,
        expires_at: new Date(token.exp * 1000).toISOString(),
      };
    } else {
      if (!given.value.startsWith(API_KEY_PREFIX) || !isWellFormedApiKey(given.value))
        throw invalid("The credential is not a well-formed API key or access token.");
      const key = await lookupApiKey(c.env.KV, c.var.db, given.value, waitUntil);
      if (!key || key.revoked) throw invalid("The API key is unknown or revoked.");
      if (key.expires_at !== null && key.expires_at <= now) throw invalid("The API key has expired.");
      credential = { type: "api_key", id: key.id, scopes: key.scopes, expires_at: key.expires_at };
    }

    c.set("credential", credential);
    try {
      await next();
    } finally {
      if (credential.type === "api_key") recordUsage(c.var.db, credential.id, c.res.status >= 400, waitUntil);
    }
  };
}

/** The scope a route needs, checked after authentication (RFC 6750 insufficient_scope). */
export function requireScope(scope: Scope): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const credential = c.get("credential");
    if (!credential) throw missing();
    if (!hasScope(credential.scopes, scope)) {
      throw new ApiError(403, "insufficient_scope", `This operation needs the ${scope} scope.`, {
        headers: {
          "WWW-Authenticate": `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"`,
        },
      });
    }
    await next();
  };
}
