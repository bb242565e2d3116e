import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";
import { pageExample } from "../../lib/openapi";
import { nextCursorSchema, pageQuery } from "../../lib/pagination";
import { LINEITEM_EXAMPLE } from "./launches.schemas";

const PASSBACK_STATUSES = ["pending", "succeeded", "failed"] as const;

/** Ada's kept grade at the examples' quiz (her second attempt, 2 of 2 points), taken by the platform. */
const PASSBACK_EXAMPLE = {
  id: "lpb_01kamz3f7c9n0p8s6e5vwx2y4r",
  platform_id: "ltp_01kamz3f7c9n0p8s6e5vwx2y4r",
  quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
  user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
  submission_id: "sub_01kamz4v2b8m1q7r5t3wxy6z9a",
  lineitem: LINEITEM_EXAMPLE,
  score_given: 2,
  score_maximum: 2,
  grading_progress: "FullyGraded" as const,
  timestamp: "2026-11-22T09:30:00.000Z",
  status: "succeeded" as const,
  attempts: 1,
  last_response_status: 200,
  last_error: null,
  next_retry_at: null,
  created_at: "2026-11-22T08:20:00.000Z",
  updated_at: "2026-11-22T09:30:01.000Z",
};

export const Passback = z
  .object({
    id: idSchema("ltiPassback"),
    platform_id: idSchema("ltiPlatform"),
    quiz_id: idSchema("quiz"),
    user_id: idSchema("user"),
    submission_id: idSchema("submission").openapi({ description: "The kept submission whose grade this is." }),
    lineitem: z.string(),
    score_given: z.number().nullable().openapi({ description: "The kept submission's points_earned; null while PendingManual." }),
    score_maximum: z.number().nullable().openapi({ description: "Its points_possible; null while PendingManual." }),
    grading_progress: z.enum(["FullyGraded", "PendingManual"]),
    timestamp: z.string().datetime().openapi({ description: "When the kept grade changed: the score's timestamp." }),
    status: z.enum(PASSBACK_STATUSES).openapi({
      description:
        "pending: to be sent (or being sent, or waiting for next_retry_at); succeeded: the platform took this score; failed: a 4xx, or 8 attempts failed.",
    }),
    attempts: z.number().int().openapi({ description: "Tries of this score, the successful one included." }),
    last_response_status: z.number().int().nullable(),
    last_error: z.string().nullable().openapi({ description: "Why the last try failed, at most 1 KiB." }),
    next_retry_at: z.string().datetime().nullable(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi("LtiPassback", { example: PASSBACK_EXAMPLE });

export const PassbackPage = z
  .object({ passbacks: z.array(Passback), next_cursor: nextCursorSchema })
  .openapi("LtiPassbackPage", { example: pageExample("passbacks", [PASSBACK_EXAMPLE], PASSBACK_EXAMPLE.id) });

/** The same row after the platform refused a later score, sent again (POST …/retry): pending, no attempt yet. */
export const PASSBACK_RETRIED_EXAMPLE = {
  ...PASSBACK_EXAMPLE,
  status: "pending" as const,
  attempts: 0,
  last_response_status: 403,
  last_error: 'The scores endpoint answered HTTP 403: {"errors":[{"message":"Course is concluded"}]}',
  updated_at: "2026-11-23T09:30:00.000Z",
};

export const PassbackListQuery = z.strictObject({
  ...pageQuery("ltiPassback"),
  status: z.enum(PASSBACK_STATUSES).optional(),
  quiz_id: idSchema("quiz").optional(),
  user_id: idSchema("user").optional(),
});

export const PassbackParams = z.object({
  id: idSchema("ltiPassback").openapi({ description: "The ledger row's id; one of the wrong prefix or shape → 404." }),
});
