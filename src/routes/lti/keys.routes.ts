import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { COMMON_ERRORS, defineRoute, errorResponses, jsonResponse } from "../../lib/openapi";
import { JsonWebKeySet, ToolKeys } from "./keys.schemas";

const tags = ["LTI"];

export const rotateKeys = defineRoute({
  operationId: "rotateLtiKeys",
  method: "post",
  path: "/keys/rotate",
  tags,
  ...scoped("admin", idempotent()),
  summary: "Rotate the tool's signing key",
  description:
    "A new RS256 key signs from now on; the one it replaces stays in /.well-known/jwks.json for 24 h (never signing). Rotating again drops an older previous key: at most two keys are listed. Without LTI_SEALING_KEY (or WEBHOOK_SECRET_KEY) → 503 lti_not_configured.",
  responses: {
    200: jsonResponse(ToolKeys, "The keys now listed, the current one first."),
    ...errorResponses(503, ...COMMON_ERRORS),
  },
});

/** Mounted at the root and public: platforms fetch it to verify the tool's client assertions. */
export const jwks = defineRoute({
  operationId: "getLtiJwks",
  method: "get",
  path: "/.well-known/jwks.json",
  tags,
  summary: "The tool's public keys (JWKS)",
  description:
    "The LTI tool's RS256 public keys, each with its kid: the current one (made on first need) and, for 24 h after a rotation, the previous one. Public, no credential; cacheable for a minute. Without LTI_SEALING_KEY (or WEBHOOK_SECRET_KEY) → 503 lti_not_configured.",
  security: [],
  responses: {
    200: jsonResponse(JsonWebKeySet, "The key set (RFC 7517)."),
    // 400: a query parameter (it takes none, like every operation).
    ...errorResponses(400, 503),
  },
});
