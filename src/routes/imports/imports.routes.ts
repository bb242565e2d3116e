import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { COMMON_ERRORS, defineRoute, errorResponses, jsonResponse } from "../../lib/openapi";
import { ImportJob, queuedJobExample } from "../jobs/jobs.schemas";
import { IMPORT_BODY, IMPORT_MEDIA_TYPES_TEXT, ImportQuery } from "./imports.schemas";

const bodyErrors = errorResponses(413, 415);

export const createImport = defineRoute({
  operationId: "createImport",
  method: "post",
  path: "/",
  tags: ["Imports"],
  ...scoped("quizzes:write", idempotent()),
  summary: "Import a question bank (QTI, Moodle XML, GIFT, Aiken) as a job",
  description: [
    "Stores the file and starts a job that reads it and writes its questions — into a new quiz, or appended to `quiz_id` — in one atomic write with their events (`quiz.created` for a new quiz, one `question.created` per question). Poll the job at its Location (`GET /v1/jobs/{id}`).",
    "The job's `result` reports every source item in source order: `imported` (every graded behaviour kept), `approximated` (imported, each loss named in `notes`) or `skipped` (with the reason: an unsupported interaction or type, invalid text, over 200 questions in the quiz, answers too large for a submission's row, …). When nothing can be imported nothing is written and `result.quiz_id` is null.",
    "Refusals: a format not given and not recognised → 400 `unknown_format`; an unknown `quiz_id` → 404; another media type → 415; over 10 MiB → 413. What needs the file read fails the job instead, with `error: { code, detail }`: `unreadable_file` (not the format, truncated, malformed), `unsafe_xml` (a DOCTYPE or entity declaration), `unsafe_package` (over 1 000 entries or 100 MiB uncompressed, or an absolute or climbing entry path), `too_many_items` (over 1 000 items). Nothing of a refused file is written.",
  ].join("\n\n"),
  request: { query: ImportQuery, body: IMPORT_BODY },
  responses: {
    202: jsonResponse(
      ImportJob,
      "The job, queued; Location names it. Its quiz_id is the new quiz's, reserved.",
      queuedJobExample("import", "job_01kamz4v2b8m1q7r5t3wxy6z9a", "quiz_01kamz4v2b8m1q7r5t3wxy6z9b"),
    ),
    ...errorResponses(400, 404, ...COMMON_ERRORS),
    413: { ...bodyErrors[413], description: "The file is larger than 10 MiB." },
    415: {
      ...bodyErrors[415],
      description: `The body is not ${IMPORT_MEDIA_TYPES_TEXT}.`,
    },
  },
});
