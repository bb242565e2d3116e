import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { idSchema } from "../../lib/ids";
import { COMMON_ERRORS, defineRoute, errorResponses, jsonResponse } from "../../lib/openapi";
import { Job, queuedJobExample } from "../jobs/jobs.schemas";
import { PASSBACK_RETRIED_EXAMPLE, Passback, PassbackListQuery, PassbackPage, PassbackParams } from "./passbacks.schemas";

const tags = ["LTI"];

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

/** Mounted under /v1/quizzes: a quiz's whole ledger, sent again. */
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
