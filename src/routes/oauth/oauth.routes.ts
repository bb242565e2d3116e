import { createRoute, type z } from "@hono/zod-openapi";
import { jsonResponse } from "../../lib/openapi";
import {
  AuthorizationServerMetadata,
  IntrospectionResponse,
  OAuthErrorBody,
  TokenActionRequest,
  TokenRequest,
  TokenResponse,
} from "./oauth.schemas";
import { MAX_OAUTH_BODY_BYTES } from "./oauth-params";

/**
 * The three POST endpoints are documented from these definitions but served by plain handlers
 * (see index.ts): their bodies are read by hand, because RFC 6749 wants a repeated parameter
 * refused and every error in its own shape, which the zod validators cannot give; the handlers
 * then validate what was read with these same schemas (validParams in oauth-params.ts).
 */
const tags = ["OAuth"];

/** The client authenticates with HTTP Basic, or (no security scheme) with client_id and client_secret in the body. */
export const CLIENT_SECRET_BASIC = "ClientSecretBasic";
const clientAuthenticated: Record<string, string[]>[] = [{ [CLIENT_SECRET_BASIC]: [] }, {}];

const formOrJson = (schema: z.ZodType) => ({
  body: {
    required: true,
    content: {
      "application/x-www-form-urlencoded": { schema },
      "application/json": { schema },
    },
  },
});

/** An error answer in RFC 6749 §5.2's shape, with an example of the error it names first. */
const oauthError = (description: string, example: z.output<typeof OAuthErrorBody>) => ({
  description,
  content: { "application/json": { schema: OAuthErrorBody, example } },
});

const noStore = {
  "Cache-Control": { schema: { type: "string" as const, enum: ["no-store"] } },
  Pragma: { schema: { type: "string" as const, enum: ["no-cache"] } },
};

const clientErrors = {
  400: oauthError("invalid_request: a missing or repeated parameter, or a body that is neither form nor JSON.", {
    error: "invalid_request",
    error_description: "The token parameter is required.",
  }),
  401: oauthError("invalid_client: unknown client, wrong secret, or no client authentication (with WWW-Authenticate: Basic).", {
    error: "invalid_client",
    error_description: "Client authentication failed.",
  }),
  413: oauthError("invalid_request: the body is larger than 16 KiB.", {
    error: "invalid_request",
    error_description: `The body is larger than ${MAX_OAUTH_BODY_BYTES} bytes.`,
  }),
  429: oauthError(
    "temporarily_unavailable: too many requests to the OAuth endpoints from this client IP; retry after Retry-After seconds.",
    { error: "temporarily_unavailable", error_description: "Too many token requests; retry after 42 s." },
  ),
};

export const token = createRoute({
  operationId: "token",
  method: "post",
  path: "/oauth/token",
  tags,
  security: clientAuthenticated,
  summary: "Issue an access token (client_credentials) or rotate a refresh token (refresh_token)",
  description:
    "RFC 6749 token endpoint. Parameters as application/x-www-form-urlencoded (or JSON); a parameter sent twice is refused. " +
    "The refresh token rotates: the previous one stays valid until the new one is first used, and an older one coming back revokes the whole grant. " +
    "The client authenticates with HTTP Basic (client_secret_basic) or with client_id and client_secret in the body (client_secret_post).",
  request: formOrJson(TokenRequest),
  responses: {
    200: { ...jsonResponse(TokenResponse, "The tokens."), headers: noStore },
    ...clientErrors,
    400: oauthError(
      "invalid_request, invalid_grant (refresh token unknown, expired, reused or revoked), unsupported_grant_type or invalid_scope.",
      { error: "invalid_scope", error_description: "The client may not request: users:write." },
    ),
  },
});

export const revoke = createRoute({
  operationId: "revoke",
  method: "post",
  path: "/oauth/revoke",
  tags,
  security: clientAuthenticated,
  summary: "Revoke an access token, or a refresh token and its whole grant (RFC 7009)",
  description:
    "Takes `token` (and an optional `token_type_hint`) as form or JSON; revoking a refresh token revokes every token of its grant. " +
    "The client authenticates with HTTP Basic (client_secret_basic) or with client_id and client_secret in the body (client_secret_post), and can revoke only its own tokens.",
  request: formOrJson(TokenActionRequest),
  responses: {
    200: { description: "Revoked, or nothing to revoke (unknown, expired or another client's token): the answer is the same." },
    ...clientErrors,
  },
});

export const introspect = createRoute({
  operationId: "introspect",
  method: "post",
  path: "/oauth/introspect",
  tags,
  security: clientAuthenticated,
  summary: "Describe a token of the calling client (RFC 7662)",
  description:
    "Takes `token` (and an optional `token_type_hint`) as form or JSON and answers `active` with the token's scope, client and expiry; a token that is unknown, expired, revoked or another client's answers only `active: false`. " +
    "The client authenticates with HTTP Basic (client_secret_basic) or with client_id and client_secret in the body (client_secret_post).",
  request: formOrJson(TokenActionRequest),
  responses: {
    200: { ...jsonResponse(IntrospectionResponse, "The token's state."), headers: noStore },
    ...clientErrors,
  },
});

export const metadata = createRoute({
  operationId: "metadata",
  method: "get",
  path: "/.well-known/oauth-authorization-server",
  tags,
  summary: "Authorization server metadata (RFC 8414)",
  description: "Public: the token, revocation and introspection endpoints and the methods and scopes they support.",
  security: [],
  responses: { 200: jsonResponse(AuthorizationServerMetadata, "Where the endpoints are and what they support.") },
});
