import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { idSchema } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { Job, queuedJobExample } from "../jobs/jobs.schemas";
import {
  JsonWebKeySet,
  Launch,
  LaunchCreate,
  PASSBACK_RETRIED_EXAMPLE,
  Passback,
  PassbackListQuery,
  PassbackPage,
  PassbackParams,
  ToolKeys,
} from "./ledger.schemas";

const tags = ["LTI"];

export const createLaunch = defineRoute({
  operationId: "createLtiLaunch",
  method: "post",
  path: "/launches",
  tags,
  ...scoped("lti:launch", idempotent()),
  summary: "Accept an LTI 1.3 launch",
  description:
    "The client application posts the id_token the platform sent to its launch URL. Every check of the 1EdTech Security Framework and LTI Core runs: an RS256 signature by a key of the platform's JWKS (fetched under the safe-target rules, kept ≤ 10 min, fetched again for an unknown kid), a registered issuer, the client_id in aud (and as azp when aud holds several), exp in the future, iat within 5 minutes, a nonce never seen, a registered deployment_id, message_type LtiResourceLinkRequest, version 1.3.0, a sub and a resource link. A failure → 401 invalid_launch whose `check` member names the check. The user is found or created from (platform, sub) with the claims' name and e-mail (null without one).",
  request: jsonBody(LaunchCreate),
  responses: {
    200: jsonResponse(Launch, "The launch: the user, the quiz to open and the AGS claim."),
    ...errorResponses(...BODY_ERRORS, ...COMMON_ERRORS),
  },
});

export const rotateKeys = defineRoute({
  operationId: "rotateLtiKeys",
  method: "post",
  path: "/keys/rotate",
  tags,
  ...scoped("admin", idempotent()),
  summary: "Rotate the tool's signing key",
  description:
    "A new RS256 key signs from now on; the one it replaces stays in /.well-known/jwks.json for 24 h (never signing). Rotating again drops an older previous key: at most two keys are listed. Without WEBHOOK_SECRET_KEY → 503 lti_not_configured.",
  responses: {
    200: jsonResponse(ToolKeys, "The keys now listed, the current one first."),
    ...errorResponses(503, ...COMMON_ERRORS),
  },
});

export const listPassbacks = defineRoute({
  operationId: "listLtiPassbacks",
  method: "get",
  path: "/passbacks",
  tags,
  ...scoped("submissions:read"),
  summary: "The grade passback ledger",
  description:
    "One row per (user, line item) holding the user's latest kept grade and where its way to the gradebook stands, oldest row first; filter by status, quiz_id, user_id. Pass `next_cursor` back as `cursor` until it is null.",
  request: { query: PassbackListQuery },
  responses: { 200: jsonResponse(PassbackPage, "A page of the ledger."), ...errorResponses(400, ...COMMON_ERRORS) },
});

export const retryPassback = defineRoute({
  operationId: "retryLtiPassback",
  method: "post",
  path: "/passbacks/{id}/retry",
  tags,
  ...scoped("admin", idempotent()),
  summary: "Send a ledger row's score again",
  description:
    "The row becomes pending with a fresh count of attempts, and its latest kept grade is sent again (after the platform's Retry-After, if one is running). An unknown id → 404.",
  request: { params: PassbackParams },
  responses: {
    202: jsonResponse(Passback, "The row, pending.", PASSBACK_RETRIED_EXAMPLE),
    ...errorResponses(404, ...COMMON_ERRORS),
  },
});

export const resyncQuiz = defineRoute({
  operationId: "resyncQuizLti",
  method: "post",
  path: "/{id}/lti/resync",
  tags,
  ...scoped("admin", idempotent()),
  summary: "Send every LTI grade of a quiz again",
  description:
    "A job (GET /v1/jobs/{id}, visible to admin) that makes every ledger row of the quiz pending and sends each user's latest kept grade again, in chunks. An unknown quiz → 404.",
  request: { params: z.object({ id: idSchema("quiz") }) },
  responses: {
    202: jsonResponse(
      Job,
      "The job, queued; Location names it.",
      queuedJobExample("lti_resync", "job_01m83vvae005egq0h49a0et4ew", "quiz_01kamz3f7c9n0p8s6e5vwx2y4r"),
    ),
    ...errorResponses(404, ...COMMON_ERRORS),
  },
});

/** Public: platforms fetch it to verify the tool's client assertions. */
export const jwks = defineRoute({
  operationId: "getLtiJwks",
  method: "get",
  path: "/.well-known/jwks.json",
  tags,
  summary: "The tool's public keys (JWKS)",
  description:
    "The LTI tool's RS256 public keys, each with its kid: the current one (made on first need) and, for 24 h after a rotation, the previous one. Public, no credential; cacheable for a minute. Without WEBHOOK_SECRET_KEY → 503 lti_not_configured.",
  security: [],
  responses: {
    200: jsonResponse(JsonWebKeySet, "The key set (RFC 7517)."),
    // 400: a query parameter (it takes none, like every operation).
    ...errorResponses(400, 503),
  },
});
