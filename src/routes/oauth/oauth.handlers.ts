import type { Context } from "hono";
import { type IssuedTokens, type TokenSettings, introspect as introspectToken, issueTokens, refreshTokens, revokeToken } from "../../auth/oauth-tokens";
import type { AppEnv } from "../../env";
import type { AppRouteHandler } from "../../lib/openapi";
import { SCOPES } from "../../lib/scopes";
import { type AuthenticatedClient, authenticateClient } from "./client-auth";
import { NO_STORE, OAuthError, invalidClient, invalidRequest, oauthEndpoint } from "./oauth-errors";
import { type OAuthParams, assertScopesAllowed, parseScope, readParams } from "./oauth-params";
import type * as routes from "./oauth.routes";

const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3600;
const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** A TTL var as a number of seconds; a missing or broken var falls back rather than minting dead tokens. */
function seconds(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

function tokenSettings(env: Env): TokenSettings {
  return {
    accessTtlSeconds: seconds(env.ACCESS_TOKEN_TTL_SECONDS, DEFAULT_ACCESS_TOKEN_TTL_SECONDS),
    refreshTtlSeconds: seconds(env.REFRESH_TOKEN_TTL_SECONDS, DEFAULT_REFRESH_TOKEN_TTL_SECONDS),
  };
}

/** Every client-authenticated endpoint starts alike: read the parameters, then authenticate the client. */
async function authenticatedRequest(c: Context<AppEnv>): Promise<{ params: OAuthParams; client: AuthenticatedClient }> {
  const params = await readParams(c.req.raw);
  const client = await authenticateClient(c.var.db, c.req.header("authorization"), params);
  return { params, client };
}

export const token = oauthEndpoint(async (c) => {
  const { params, client } = await authenticatedRequest(c);
  const grantType = params.get("grant_type");
  if (grantType === undefined) throw invalidRequest("The grant_type parameter is required.");
  if (grantType !== "client_credentials" && grantType !== "refresh_token")
    throw new OAuthError("unsupported_grant_type", "The grant_type must be client_credentials or refresh_token.");
  const requested = parseScope(params.get("scope"));
  if (requested) assertScopesAllowed(requested, client.scopes);

  const settings = tokenSettings(c.env);
  const tokens =
    grantType === "client_credentials"
      ? await clientCredentialsGrant(c, settings, client, requested)
      : await refreshGrant(c, settings, client, params, requested);
  return c.json(
    {
      access_token: tokens.access_token,
      token_type: "Bearer",
      expires_in: tokens.expires_in,
      scope: tokens.scopes.join(" "),
      refresh_token: tokens.refresh_token,
    },
    200,
    NO_STORE,
  );
});

async function clientCredentialsGrant(
  c: Context<AppEnv>,
  settings: TokenSettings,
  client: AuthenticatedClient,
  requested: string[] | null,
): Promise<IssuedTokens> {
  const tokens = await issueTokens(c.var.db, c.env.KV, settings, client, requested ?? client.scopes);
  if (!tokens) throw invalidClient("The client was deleted or its secret replaced while the request ran.");
  return tokens;
}

async function refreshGrant(
  c: Context<AppEnv>,
  settings: TokenSettings,
  client: AuthenticatedClient,
  params: OAuthParams,
  requested: string[] | null,
): Promise<IssuedTokens> {
  const refreshToken = params.get("refresh_token");
  if (refreshToken === undefined) throw invalidRequest("The refresh_token parameter is required.");
  const outcome = await refreshTokens(c.var.db, c.env.KV, settings, client, refreshToken, requested);
  if (!outcome.ok) throw new OAuthError(outcome.error, outcome.description);
  return outcome.tokens;
}

/** RFC 7009: the same empty 200 whether the token was revoked, unknown, expired or another client's. */
export const revoke = oauthEndpoint(async (c) => {
  const { params, client } = await authenticatedRequest(c);
  const token = params.get("token");
  if (token === undefined) throw invalidRequest("The token parameter is required.");
  // token_type_hint is not needed: a token's prefix says what it is.
  await revokeToken(c.var.db, c.env.KV, client.id, token);
  return c.body(null, 200, NO_STORE);
});

export const introspect = oauthEndpoint(async (c) => {
  const { params, client } = await authenticatedRequest(c);
  const token = params.get("token");
  if (token === undefined) throw invalidRequest("The token parameter is required.");
  return c.json(await introspectToken(c.var.db, c.env.KV, client.id, token), 200, NO_STORE);
});

/** Wrong method on an OAuth endpoint: still an RFC 6749 body, with Allow. */
export const methodNotAllowed = oauthEndpoint(async () => {
  throw new OAuthError("invalid_request", "This endpoint accepts POST only.", 405, { Allow: "POST" });
});

/** The issuer: the ISSUER var, or else the origin the request came to, so discovery also works locally. */
const issuerOf = (c: Context<AppEnv>) => (c.env.ISSUER || new URL(c.req.url).origin).replace(/\/+$/, "");

const CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"];

export const metadata: AppRouteHandler<typeof routes.metadata> = async (c) => {
  const issuer = issuerOf(c);
  return c.json(
    {
      issuer,
      token_endpoint: `${issuer}/oauth/token`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      introspection_endpoint: `${issuer}/oauth/introspect`,
      grant_types_supported: ["client_credentials", "refresh_token"],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      scopes_supported: [...SCOPES],
      service_documentation: `${issuer}/docs`,
    },
    200,
  );
};
