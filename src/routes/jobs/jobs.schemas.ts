import { z } from "@hono/zod-openapi";
import { JOB_STATUSES, JOB_TYPES } from "../../domain/jobs";
import { idSchema } from "../../lib/ids";
import { nextCursorSchema, pageQuery } from "../../lib/pagination";

const RegradeResult = z
  .object({
    dry_run: z.boolean(),
    submissions_considered: z.number().int().openapi({ description: "Graded submissions presented any listed question." }),
    submissions_changed: z.number().int().openapi({ description: "Those whose score or any answer's points changed." }),
    mean_score_before: z
      .number()
      .nullable()
      .openapi({ description: "Mean score of those considered, 2 decimals; null when none." }),
    mean_score_after: z.number().nullable(),
  })
  .openapi("RegradeResult");

export const Job = z
  .object({
    id: idSchema("job"),
    type: z.enum(JOB_TYPES),
    status: z.enum(JOB_STATUSES),
    quiz_id: idSchema("quiz"),
    progress: z.object({
      done: z.number().int(),
      total: z.number().int().openapi({ description: "0 until the job starts; set to `done` when it succeeds." }),
    }),
    result: RegradeResult.nullable().openapi({ description: "Once the job has succeeded." }),
    error: z.string().nullable().openapi({ description: "Why a failed job failed." }),
    created_at: z.string().datetime(),
    finished_at: z.string().datetime().nullable(),
  })
  .openapi("Job", {
    example: {
      id: "job_01kamz3f7c9n0p8s6e5vwx2y4r",
      type: "regrade",
      status: "succeeded",
      quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
      progress: { done: 120, total: 120 },
      result: {
        dry_run: true,
        submissions_considered: 120,
        submissions_changed: 17,
        mean_score_before: 71.5,
        mean_score_after: 74.25,
      },
      error: null,
      created_at: "2026-11-23T09:30:00.000Z",
      finished_at: "2026-11-23T09:30:02.000Z",
    },
  });

const JobChange = z
  .object({
    submission_id: idSchema("submission"),
    user_id: idSchema("user"),
    score_before: z.number(),
    score_after: z.number(),
  })
  .openapi("JobChange");

export const JobChangePage = z.object({ changes: z.array(JobChange), next_cursor: nextCursorSchema }).openapi("JobChangePage");

export const JobChangesQuery = z.strictObject(pageQuery("submission"));
