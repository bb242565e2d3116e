import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idSchema } from "../../lib/ids";
import { COMMON_ERRORS, defineRoute, errorResponses } from "../../lib/openapi";
import { CSV_EXAMPLE, DISPOSITION_EXAMPLE, ExportQuery, NDJSON_EXAMPLE } from "./results-export.schemas";

export const exportResults = defineRoute({
  operationId: "exportResults",
  method: "get",
  path: "/{id}/results/export",
  tags: ["Submissions"],
  ...scoped("submissions:read"),
  summary: "Export a quiz's results (CSV or NDJSON, streamed)",
  description: [
    "Every graded or needs-review submission of the quiz, in (`created_at`, `id`) order, streamed in one response however many there are.",
    "`shape=submissions`: `submission_id, user_id, attempt, status, created_at, graded_at, graded_by, score, points_earned, points_possible, kept`, then `q<position>_points` per question of the quiz in its order (empty when the submission did not present it).",
    "`kept` is true for the attempt the grading policy keeps: `first`/`latest` by attempt number, `highest` the earliest attempt with the highest score, `average` every graded attempt; false while a submission needs review (its `graded_at` is empty).",
    "`shape=answers`: `submission_id, user_id, question_id, position, type, question_version, response, points_earned, points_possible, correct`, one row per question a submission presented, `position` being its place in that submission.",
    "`response` is the stored response (CSV: a string as is, a structured one as JSON text, empty when unanswered; NDJSON: the JSON value, null when unanswered). Answer keys are never exported.",
    "In CSV a text cell starting with `=`, `+`, `-`, `@`, tab or CR gets a leading `'` (OWASP CSV injection); numbers are written as numbers; a cell holding a comma, quote or line break is quoted.",
    "Not paginated: read the body as a stream. A failure after the first byte ends the stream with an error.",
  ].join("\n\n"),
  request: { params: z.object({ id: idSchema("quiz") }), query: ExportQuery },
  responses: {
    200: {
      description: "The export, streamed.",
      headers: z.object({
        "Content-Disposition": z.string().openapi({
          description: 'Saved as `<quiz id>-<shape>.<csv|ndjson>`: `attachment; filename="…"`.',
          pattern: '^attachment; filename="quiz_[0-9a-z]{26}-(submissions|answers)\\.(csv|ndjson)"$',
          example: DISPOSITION_EXAMPLE,
        }),
      }),
      content: {
        "text/csv": { schema: z.string().openapi({ example: CSV_EXAMPLE }) },
        "application/x-ndjson": { schema: z.string().openapi({ example: NDJSON_EXAMPLE }) },
      },
    },
    ...errorResponses(400, 404, ...COMMON_ERRORS),
  },
});
