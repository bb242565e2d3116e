import { z } from "@hono/zod-openapi";
import { OAUTH_ERROR_CODES } from "../../lib/errors";
import { idSchema } from "../../lib/ids";
import { SCOPES } from "../../lib/scopes";
import { MAX_OAUTH_BODY_BYTES } from "./oauth-params";

/** Parameters are read by hand (oauth-params.ts), then validated here; what bounds their length is the body limit. */
const param = () => z.string().openapi({ maxLength: MAX_OAUTH_BODY_BYTES });

const clientCredentialFields = {
  client_id: idSchema("oauthClient")
    .optional()
    .openapi({ description: "client_secret_post: the client id, sent with client_secret instead of HTTP Basic." }),
  client_secret: param()
    .optional()
    .openapi({ description: "client_secret_post: the client secret. Never together with an Authorization header." }),
};

const scopeField = param().optional().openapi({
  description: "Space-delimited scopes, each one the client holds. Omitted: all of them (or, on refresh, all of the grant's).",
  example: "quizzes:read submissions:read",
});

export const TokenRequest = z
  .object({
    grant_type: z.enum(["client_credentials", "refresh_token"]),
    scope: scopeField,
    refresh_token: param().optional().openapi({ description: "Required with grant_type=refresh_token.", example: "qz_rt_…" }),
    ...clientCredentialFields,
  })
  .openapi("TokenRequest", { example: { grant_type: "client_credentials", scope: "quizzes:read" } });

export const TokenResponse = z
  .object({
    access_token: z.string().openapi({ example: "qz_at_…" }),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().openapi({ description: "Seconds the access token lives.", example: 3600 }),
    scope: z.string().openapi({ example: "quizzes:read submissions:read" }),
    refresh_token: z.string().openapi({
      example: "qz_rt_…",
      description:
        "Rotates on every use: the previous one stays valid until this one is first used; an older one coming back revokes the grant.",
    }),
  })
  .openapi("TokenResponse", {
    example: {
      access_token: "qz_at_s2IHPI59RU67rEtAD9PcA6EzBO7RvZS6lgEkom7VKDU",
      token_type: "Bearer",
      expires_in: 3600,
      scope: "quizzes:read",
      refresh_token: "qz_rt_mfdmX35OEAZbBSmrSTNoj5ntpyBYDLHrQxXwp9n1MsX",
    },
  });

export const TokenActionRequest = z
  .object({
    token: param().openapi({ description: "An access or refresh token of this client.", example: "qz_at_…" }),
    token_type_hint: z.enum(["access_token", "refresh_token"]).optional().openapi({
      description: "Optional; tokens carry their kind in their prefix, so the hint is not needed.",
    }),
    ...clientCredentialFields,
  })
  .openapi("TokenActionRequest", { example: { token: "qz_at_…", token_type_hint: "access_token" } });

export const IntrospectionResponse = z
  .object({
    active: z.boolean(),
    scope: z.string().optional(),
    client_id: z.string().optional(),
    token_type: z
      .literal("Bearer")
      .optional()
      .openapi({ description: "For access tokens (RFC 7662 §2.2); refresh tokens have none." }),
    exp: z.number().int().optional(),
    iat: z.number().int().optional(),
  })
  .openapi("IntrospectionResponse", {
    description: "Only `active: false` for a token that is unknown, expired, revoked or another client's.",
    example: {
      active: true,
      scope: "quizzes:read",
      client_id: "cli_01kamz3f7c9n0p8s6e5vwx2y4r",
      token_type: "Bearer",
      exp: 1_795_429_800,
      iat: 1_795_426_200,
    },
  });

export const OAuthErrorBody = z
  .object({
    // temporarily_unavailable: the OAuth endpoints' per-IP rate limit (RFC 6749 §4.1.2.1).
    error: z.enum(OAUTH_ERROR_CODES),
    error_description: z.string(),
  })
  .openapi("OAuthError", { description: "RFC 6749 §5.2 error body (not a problem detail)." });

export const AuthorizationServerMetadata = z
  .object({
    issuer: z.string().url(),
    token_endpoint: z.string().url(),
    revocation_endpoint: z.string().url(),
    introspection_endpoint: z.string().url(),
    grant_types_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()).openapi({ description: "Empty: there is no authorization endpoint." }),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    introspection_endpoint_auth_methods_supported: z.array(z.string()),
    scopes_supported: z.array(z.enum(SCOPES)),
    service_documentation: z.string().url(),
  })
  .openapi("AuthorizationServerMetadata", {
    example: {
      issuer: "https://quiz-api.example.com",
      token_endpoint: "https://quiz-api.example.com/oauth/token",
      revocation_endpoint: "https://quiz-api.example.com/oauth/revoke",
      introspection_endpoint: "https://quiz-api.example.com/oauth/introspect",
      grant_types_supported: ["client_credentials", "refresh_token"],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      scopes_supported: [...SCOPES],
      service_documentation: "https://quiz-api.example.com/docs",
    },
  });
