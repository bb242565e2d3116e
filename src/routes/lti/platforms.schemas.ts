import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";
import { pageExample } from "../../lib/openapi";
import { nextCursorSchema, pageQuery } from "../../lib/pagination";

// Identifiers an LMS issues (client ids, deployment ids) are matched exactly: visible ASCII, no space.
const token = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\x21-\x7e]+$/, "Expected visible ASCII characters without spaces.");

const Url = (description: string, example: string) =>
  z.string().min(1).max(2048).openapi({ format: "uri", description, example });

const Issuer = token(2048).openapi({
  description: "The platform's issuer, exactly as its id_tokens' `iss` carries it.",
  example: "https://canvas.instructure.com",
});
const ClientId = token(255).openapi({ description: "The client_id the LMS gave this tool.", example: "10000000000042" });
const DeploymentIds = z
  .array(token(255))
  .min(1)
  .max(100)
  .refine((ids) => new Set(ids).size === ids.length, { message: "Deployment ids must be unique." })
  .openapi({
    description: "The deployments whose launches are accepted.",
    example: ["42:8865aa05b4b79b64a91a86042e43af5ea8ae79eb"],
  });
const TokenUrl = Url(
  "The platform's OAuth 2.0 token endpoint (AGS access tokens). Safe-target rules: https, no private address (docs/lti.md).",
  "https://sso.canvaslms.com/login/oauth2/token",
);
const JwksUrl = Url(
  "Where the platform publishes the keys its id_tokens are signed with. Safe-target rules as for auth_token_url.",
  "https://sso.canvaslms.com/api/lti/security/jwks",
);
const AuthLoginUrl = Url(
  "The platform's OIDC authorization endpoint, where /lti/login sends the browser (Canvas: https://sso.canvaslms.com/api/lti/authorize_redirect; Moodle: <site>/mod/lti/auth.php). Needed for launches through the tool's pages; safe-target rules as for auth_token_url.",
  "https://sso.canvaslms.com/api/lti/authorize_redirect",
);
const FrameOrigins = z
  .array(z.string().min(1).max(255))
  .max(10)
  .refine((origins) => new Set(origins).size === origins.length, { message: "Frame origins must be unique." })
  .openapi({
    description:
      "Origins (https://host[:port], no path) where the LMS frames the tool: added to frame-ancestors of the tool's pages and the player. At most 10.",
    example: ["https://school.instructure.com"],
  });
const Audience = token(2048).openapi({
  description:
    "The `aud` of the tool's client assertions, when the platform wants another than auth_token_url (Moodle, Brightspace).",
  example: "https://sso.canvaslms.com/login/oauth2/token",
});

export const PlatformCreate = z
  .strictObject({
    issuer: Issuer,
    client_id: ClientId,
    deployment_ids: DeploymentIds,
    auth_token_url: TokenUrl,
    jwks_url: JwksUrl,
    audience: Audience.nullable().optional(),
    auth_login_url: AuthLoginUrl.nullable().optional(),
    frame_origins: FrameOrigins.optional(),
  })
  .openapi("LtiPlatformCreate", {
    example: {
      issuer: "https://canvas.instructure.com",
      client_id: "10000000000042",
      deployment_ids: ["42:8865aa05b4b79b64a91a86042e43af5ea8ae79eb"],
      auth_token_url: "https://sso.canvaslms.com/login/oauth2/token",
      jwks_url: "https://sso.canvaslms.com/api/lti/security/jwks",
      auth_login_url: "https://sso.canvaslms.com/api/lti/authorize_redirect",
      frame_origins: ["https://school.instructure.com"],
    },
  });

export const PlatformPatch = z
  .strictObject({
    issuer: Issuer.optional(),
    client_id: ClientId.optional(),
    deployment_ids: DeploymentIds.optional(),
    auth_token_url: TokenUrl.optional(),
    jwks_url: JwksUrl.optional(),
    audience: Audience.nullable().optional().openapi({ description: "null: the token URL again." }),
    auth_login_url: AuthLoginUrl.nullable().optional().openapi({ description: "null: no launches through the tool's pages." }),
    frame_origins: FrameOrigins.optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { message: "Send at least one field." })
  .openapi("LtiPlatformPatch", {
    example: { deployment_ids: ["42:8865aa05b4b79b64a91a86042e43af5ea8ae79eb", "43:0a3c5e1f2b4d6f8091a2b3c4d5e6f7081928374a"] },
  });

/** LtiPlatformCreate's example as registered. */
export const PLATFORM_EXAMPLE = {
  id: "ltp_01kamz3f7c9n0p8s6e5vwx2y4r",
  issuer: "https://canvas.instructure.com",
  client_id: "10000000000042",
  deployment_ids: ["42:8865aa05b4b79b64a91a86042e43af5ea8ae79eb"],
  auth_token_url: "https://sso.canvaslms.com/login/oauth2/token",
  jwks_url: "https://sso.canvaslms.com/api/lti/security/jwks",
  audience: null,
  auth_login_url: "https://sso.canvaslms.com/api/lti/authorize_redirect",
  frame_origins: ["https://school.instructure.com"],
  created_at: "2026-11-20T09:00:00.000Z",
  updated_at: "2026-11-20T09:00:00.000Z",
};

export const Platform = z
  .object({
    id: idSchema("ltiPlatform"),
    issuer: z.string(),
    client_id: z.string(),
    deployment_ids: z.array(z.string()),
    auth_token_url: z.string(),
    jwks_url: z.string(),
    audience: z.string().nullable(),
    auth_login_url: z.string().nullable(),
    frame_origins: z.array(z.string()),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi("LtiPlatform", { example: PLATFORM_EXAMPLE });

export const PlatformPage = z
  .object({ platforms: z.array(Platform), next_cursor: nextCursorSchema })
  .openapi("LtiPlatformPage", { example: pageExample("platforms", [PLATFORM_EXAMPLE], PLATFORM_EXAMPLE.id) });

export const PlatformParams = z.object({
  id: idSchema("ltiPlatform").openapi({ description: "The platform's id; one of the wrong prefix or shape → 404." }),
});
export const PlatformListQuery = z.strictObject(pageQuery("ltiPlatform"));
