import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { Launch, LaunchCreate } from "./launches.schemas";

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
