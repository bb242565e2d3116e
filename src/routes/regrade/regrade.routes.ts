import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { idSchema } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { Job, queuedJobExample } from "../jobs/jobs.schemas";
import { RegradeRequest } from "./regrade.schemas";

/** Mounted under /v1/quizzes. */
export const regradeQuiz = defineRoute({
  operationId: "regradeQuiz",
  method: "post",
  path: "/{id}/regrade",
  tags: ["Regrade"],
  ...scoped("quizzes:write", idempotent()),
  summary: "Regrade a quiz's graded submissions (a dry run by default)",
  description:
    "Starts a job that scores the graded submissions again under the questions' current versions and the policy, in bounded chunks. A dry run (the default) lists what would change at `GET /v1/jobs/{id}/changes` and changes nothing; applied, every score, feedback, result, grade, analytics figure and item statistic becomes what grading under the new key gives, and each changed submission emits `submission.regraded`. A question id that is not one of the quiz's → 400; an unknown quiz → 404.",
  request: { params: z.object({ id: idSchema("quiz") }), ...jsonBody(RegradeRequest) },
  responses: {
    202: jsonResponse(
      Job,
      "The job, queued; Location names it.",
      queuedJobExample("regrade", "job_01kamz3f7c9n0p8s6e5vwx2y4r", "quiz_01kamz3f7c9n0p8s6e5vwx2y4r"),
    ),
    ...errorResponses(...BODY_ERRORS, 404, ...COMMON_ERRORS),
  },
});
