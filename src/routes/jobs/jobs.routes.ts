import { z } from "@hono/zod-openapi";
import { authenticated } from "../../auth/authorize";
import { idSchema } from "../../lib/ids";
import { COMMON_ERRORS, defineRoute, errorResponses, jsonResponse } from "../../lib/openapi";
import { Job, JobChangePage, JobChangesQuery } from "./jobs.schemas";

/** Mounted at /v1/jobs. */
const tags = ["Jobs"];
const JobParams = z.object({ id: idSchema("job") });

export const getJob = defineRoute({
  operationId: "getJob",
  method: "get",
  path: "/{id}",
  tags,
  ...authenticated,
  summary: "A job's status, progress and result",
  description:
    "Long work (a regrade, an import, an LTI resync) runs as a job in the background. Visible to credentials holding the scope that started it (`quizzes:write` for a regrade or an import, `admin` for a resync); to any other, 404. The shape of `result` and `error` depends on `type`: an import's failure is `{ code, detail }`, a regrade's or a resync's a string.",
  request: { params: JobParams },
  responses: { 200: jsonResponse(Job, "The job."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const listJobChanges = defineRoute({
  operationId: "listJobChanges",
  method: "get",
  path: "/{id}/changes",
  tags,
  ...authenticated,
  summary: "A regrade's per-submission changes",
  description:
    "Each submission whose score or any answer's points the regrade changes (or, for a dry run, would change), by submission id; grows while the job runs. Paginated like every list.",
  request: { params: JobParams, query: JobChangesQuery },
  responses: { 200: jsonResponse(JobChangePage, "A page of changes."), ...errorResponses(400, 404, ...COMMON_ERRORS) },
});
