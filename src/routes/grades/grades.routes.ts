import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idSchema } from "../../lib/ids";
import { COMMON_ERRORS, defineRoute, errorResponses, jsonResponse } from "../../lib/openapi";
import { pageQuery } from "../../lib/pagination";
import { GradePage, gradePageExample } from "./grades.schemas";

const tags = ["Grades"];

export const listQuizGrades = defineRoute({
  operationId: "listQuizGrades",
  method: "get",
  path: "/{id}/grades",
  tags,
  ...scoped("submissions:read"),
  summary: "Kept grades of a quiz, per user",
  description:
    "One entry per user with a graded submission: the attempts graded and the score the quiz's grading_policy keeps (highest, latest, first or average), kept current at grade time. By user id; pass `next_cursor` back as `cursor` until it is null.",
  request: { params: z.object({ id: idSchema("quiz") }), query: z.strictObject(pageQuery("user")) },
  responses: {
    200: jsonResponse(GradePage, "A page of grades.", gradePageExample("user_id")),
    ...errorResponses(400, 404, ...COMMON_ERRORS),
  },
});

export const listUserGrades = defineRoute({
  operationId: "listUserGrades",
  method: "get",
  path: "/{id}/grades",
  tags,
  ...scoped("submissions:read"),
  summary: "Kept grades of a user, per quiz",
  description: "One entry per quiz the user has a graded submission of, by quiz id; paginated like every list.",
  request: { params: z.object({ id: idSchema("user") }), query: z.strictObject(pageQuery("quiz")) },
  responses: {
    200: jsonResponse(GradePage, "A page of grades.", gradePageExample("quiz_id")),
    ...errorResponses(400, 404, ...COMMON_ERRORS),
  },
});
