import { z } from "@hono/zod-openapi";
import { GRADING_POLICIES } from "../../domain/quiz-settings";
import { idSchema } from "../../lib/ids";
import { nextCursorSchema } from "../../lib/pagination";

const Grade = z
  .object({
    quiz_id: idSchema("quiz"),
    user_id: idSchema("user"),
    attempts: z.number().int().min(1).openapi({ description: "The user's graded submissions at the quiz." }),
    kept_score: z.number().openapi({ description: "The score the policy keeps, 0–100.", example: 87.5 }),
    policy: z
      .enum(GRADING_POLICIES)
      .openapi({ description: "The quiz's grading_policy now: changing it changes every kept score at once." }),
  })
  .openapi("Grade");

export const GradePage = z.object({ grades: z.array(Grade), next_cursor: nextCursorSchema });
