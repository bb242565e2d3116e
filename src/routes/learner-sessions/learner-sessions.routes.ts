import { z } from "@hono/zod-openapi";
import { authenticated, scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { idSchema } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { CreatedLearnerSession, CurrentLearnerSession, LearnerSession, LearnerSessionCreate } from "./learner-sessions.schemas";

const tags = ["Learner sessions"];
const Params = z.object({ id: idSchema("learnerSession") });

export const createLearnerSession = defineRoute({
  operationId: "createLearnerSession",
  method: "post",
  path: "/",
  tags,
  ...scoped("learners:write", idempotent()),
  summary: "Mint a learner token: one user taking one quiz; the token is shown once",
  description:
    "The school's server calls this and hands the token (or `player_url`) to the learner's browser. The token may read its session, start submissions of its quiz as its user, read, answer, grade and read the results of them, and nothing else (403 insufficient_scope; another user's or quiz's submission → 404). Emits learner_session.created (without the token).",
  request: jsonBody(LearnerSessionCreate),
  responses: {
    201: jsonResponse(CreatedLearnerSession, "The session, with its token and player_url shown this once."),
    ...errorResponses(...BODY_ERRORS, ...COMMON_ERRORS),
  },
});

export const getCurrentLearnerSession = defineRoute({
  operationId: "getCurrentLearnerSession",
  method: "get",
  path: "/current",
  tags,
  ...authenticated,
  summary: "The learner token's own session, user, quiz, attempts and submissions",
  description:
    "For a learner token (qz_lt_…) only: everything a player shows before the first question. Any other credential → 403 insufficient_scope.",
  responses: {
    200: jsonResponse(CurrentLearnerSession, "The session as its learner sees it."),
    ...errorResponses(...COMMON_ERRORS),
  },
});

export const getLearnerSession = defineRoute({
  operationId: "getLearnerSession",
  method: "get",
  path: "/{id}",
  tags,
  ...scoped("learners:write"),
  summary: "Get a learner session (never its token)",
  description: "Returns the session's user, quiz, origins, return URL, expiry and revocation.",
  request: { params: Params },
  responses: { 200: jsonResponse(LearnerSession, "The session."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const revokeLearnerSession = defineRoute({
  operationId: "revokeLearnerSession",
  method: "delete",
  path: "/{id}",
  tags,
  ...scoped("learners:write"),
  summary: "Revoke a learner session",
  description:
    "The token is refused (401 invalid_token) from the next request on, everywhere: tokens are looked up in the primary database, never cached. Revoking again answers 204 and changes nothing. Emits learner_session.revoked.",
  request: { params: Params },
  responses: { 204: { description: "Revoked." }, ...errorResponses(404, ...COMMON_ERRORS) },
});
