import { z } from "@hono/zod-openapi";
import { EXPORT_FORMATS, EXPORT_SHAPES } from "../../domain/results-export";

export const ExportQuery = z.strictObject({
  format: z.enum(EXPORT_FORMATS).openapi({
    description:
      "`csv`: RFC 4180 with a header row and CRLF (`text/csv; charset=utf-8`); `ndjson`: one JSON object a line (`application/x-ndjson`).",
    example: "csv",
  }),
  shape: z.enum(EXPORT_SHAPES).openapi({
    description:
      "`submissions`: one row per graded or needs-review submission; `answers`: one row per question each of them presented.",
    example: "submissions",
  }),
  // Normalised to the stored form (UTC, milliseconds), so that it compares as text with graded_at.
  since: z.iso
    .datetime({ offset: true, abort: true })
    .overwrite((at) => new Date(at).toISOString())
    .optional()
    .openapi({
      description:
        "Only submissions graded at or after this instant (inclusive, on `graded_at`); submissions that still need review have no `graded_at` and are left out. ISO 8601, `Z` or an offset.",
      maxLength: 40,
      example: "2026-11-22T08:00:00.000Z",
    }),
});

const SUB = "sub_01kamz3f7c9n0p8s6e5vwx2y4r";
const SUB2 = "sub_01kamz4v2b8m1q7r5t3wxy6z9a";
const USER = "user_01kamz3f7c9n0p8s6e5vwx2y4r";
const Q1 = "qst_01kamz3f7c9n0p8s6e5vwx2y4r";
const Q2 = "qst_01kamz3g1d2e3f4g5h6j7k8m9n";

/** What each shape looks like, for the document: the examples' submissions (Ada's two attempts at the two-question quiz). */
export const CSV_EXAMPLE = [
  "submission_id,user_id,attempt,status,created_at,graded_at,graded_by,score,points_earned,points_possible,kept,q1_points,q2_points",
  `${SUB},${USER},1,graded,2026-11-22T08:00:00.000Z,2026-11-22T08:20:00.000Z,request,50,1,2,false,1,0`,
  `${SUB2},${USER},2,graded,2026-11-22T09:00:00.000Z,2026-11-22T09:30:00.000Z,deadline,100,2,2,true,1,1`,
  "",
].join("\r\n");

export const NDJSON_EXAMPLE = [
  {
    submission_id: SUB,
    user_id: USER,
    question_id: Q1,
    position: 1,
    type: "single_choice",
    question_version: 1,
    response: "a",
    points_earned: 1,
    points_possible: 1,
    correct: true,
  },
  {
    submission_id: SUB,
    user_id: USER,
    question_id: Q2,
    position: 2,
    type: "true_false",
    question_version: 1,
    response: false,
    points_earned: 0,
    points_possible: 1,
    correct: false,
  },
]
  .map((record) => `${JSON.stringify(record)}\n`)
  .join("");

export const DISPOSITION_EXAMPLE = 'attachment; filename="quiz_01kamz3f7c9n0p8s6e5vwx2y4r-submissions.csv"';
