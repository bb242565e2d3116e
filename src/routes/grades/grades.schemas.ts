import { z } from "@hono/zod-openapi";
import { GRADING_POLICIES } from "../../domain/quiz-settings";
import { idSchema } from "../../lib/ids";
import { pageExample } from "../../lib/openapi";
import { nextCursorSchema } from "../../lib/pagination";

/** Ada's grade at the examples' quiz: the higher of her two attempts (50, then 100). */
const GRADE_EXAMPLE = {
  quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
  user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
  attempts: 2,
  kept_score: 100,
  policy: "highest" as const,
};

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
  .openapi("Grade", { example: GRADE_EXAMPLE });

export const GradePage = z.object({ grades: z.array(Grade), next_cursor: nextCursorSchema });

/** A page of grades: a quiz's are listed by user id, a user's by quiz id, the cursor after the last. */
export const gradePageExample = (by: "user_id" | "quiz_id") => pageExample("grades", [GRADE_EXAMPLE], GRADE_EXAMPLE[by]);
