import { z } from "@hono/zod-openapi";
import { MAX_QUESTIONS_PER_QUIZ } from "../../authoring/question.schemas";
import { REGRADE_POLICIES } from "../../domain/jobs";
import { idSchema } from "../../lib/ids";

export const RegradeRequest = z
  .strictObject({
    question_ids: z
      .array(idSchema("question"))
      .min(1)
      .max(MAX_QUESTIONS_PER_QUIZ)
      .refine((ids) => new Set(ids).size === ids.length, { message: "Each question may be listed once." })
      .optional()
      .openapi({ description: "Questions of this quiz to regrade; left out: every question." }),
    policy: z.enum(REGRADE_POLICIES).default("current_key").openapi({
      description:
        "`current_key`: score the listed questions against their current version; `full_credit`: full points for every presented listed question, answered or not; `higher_of`: per answer, the larger of the old and the new points.",
    }),
    dry_run: z
      .boolean()
      .default(true)
      .openapi({ description: "true (the default): compute and list the changes, change nothing." }),
  })
  .openapi("RegradeRequest", {
    example: { question_ids: ["qst_01kamz3f7c9n0p8s6e5vwx2y4r"], policy: "current_key", dry_run: true },
  });
