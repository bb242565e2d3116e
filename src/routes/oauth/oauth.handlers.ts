import type { z } from "@hono/zod-openapi";
import type { Context, Handler } from "hono";
import { introspect as introspectToken } from "../../auth/oauth-introspection";
import { refreshTokens } from "../../auth/oauth-refresh";
import { revokeToken } from "../../auth/oauth-revocation";
import { type IssuedTokens, issueTokens } from "../../auth/oauth-tokens";
import type { AppEnv } from "../../env";
import { config, type TokenSettings } from "../../lib/config";
import { invalidRequest, NO_STORE, OAuthError } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/openapi";
import { SCOPES } from "../../lib/scopes";
import { type AuthenticatedClient, authenticateClient } from "./client-auth";
import type * as routes from "./oauth.routes";
import { TokenActionRequest, TokenRequest } from "./oauth.schemas";
import { assertScopesAllowed, parseScope, readParams, validParams } from "./oauth-params";

/**
 * Every client-authenticated endpoint starts alike: read the parameters, authenticate the client,
 * then validate the parameters with the schema that documents them (after authenticating, so that
 * a malformed client_id is the invalid_client it always was).
 */
async function authenticatedRequest<T extends z.ZodType>(c: Context<AppEnv>, schema: T) {
  const params = await readParams(c.req.raw);
  const client = await authenticateClient(c.var.db, c.req.header("authorization"), params);
  return { request: validParams(schema, params), client };
}

export const token: Handler<AppEnv> = async (c) => {
  const { request, client } = await authenticatedRequest(c, TokenRequest);
  const requested = parseScope(request.scope);
  if (requested) assertScopesAllowed(requested, client.scopes);

  const settings = config(c.env).tokens;
  const tokens =
    request.grant_type === "client_credentials"
      ? await issueTokens(c.var.db, c.env.KV, settings, client, requested ?? client.scopes)
      : await refreshGrant(c, settings, client, request.refresh_token, requested);
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
};

function refreshGrant(
  c: Context<AppEnv>,
  settings: TokenSettings,
  client: AuthenticatedClient,
  refreshToken: string | undefined,
  requested: string[] | null,
): Promise<IssuedTokens> {
  // The schema documents the parameter as optional: only this grant needs it.
  if (refreshToken === undefined) throw invalidRequest("The refresh_token parameter is required.");
  return refreshTokens(c.var.db, c.env, settings, client, refreshToken, requested);
}

/** RFC 7009: the same empty 200 whether the token was revoked, unknown, expired or another client's. */
export const revoke: Handler<AppEnv> = async (c) => {
  const { request, client } = await authenticatedRequest(c, TokenActionRequest);
  // token_type_hint is not needed: a token's prefix says what it is.
  await revokeToken(c.var.db, c.env, client.id, request.token);
  return c.body(null, 200, NO_STORE);
};

export const introspect: Handler<AppEnv> = async (c) => {
  const { request, client } = await authenticatedRequest(c, TokenActionRequest);
  return c.json(await introspectToken(c.var.db, c.env.KV, client.id, request.token), 200, NO_STORE);
};

/** Wrong method on an OAuth endpoint: still an RFC 6749 body, with Allow. */
export const methodNotAllowed: Handler<AppEnv> = () => {
  throw new OAuthError("invalid_request", "This endpoint accepts POST only.", 405, { Allow: "POST" });
};

/** The issuer: the ISSUER var, or else the origin the request came to, so discovery also works locally. */
const issuerOf = (c: Context<AppEnv>) => config(c.env).issuer ?? new URL(c.req.url).origin;

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
