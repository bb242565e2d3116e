import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";

export const QuizAnalytics = z
  .object({
    quiz_id: idSchema("quiz"),
    total_attempts: z.number().int().openapi({ description: "Graded submissions." }),
    unique_users: z.number().int(),
    avg_score: z.number().openapi({ description: "Mean score of graded submissions; 0 when there are none." }),
    min_score: z.number().nullable(),
    max_score: z.number().nullable(),
    stddev_score: z.number().nullable().openapi({ description: "Population standard deviation of the scores." }),
    score_distribution: z
      .array(z.object({ from: z.number(), to: z.number(), count: z.number().int() }))
      .openapi({ description: "Ten buckets: [0,10), [10,20), …, [90,100] (the last includes 100)." }),
    questions: z
      .array(
        z.object({
          question_id: idSchema("question"),
          attempts: z.number().int(),
          correct_count: z.number().int(),
          correct_rate: z.number().openapi({ description: "correct_count / attempts, 0 when there are none." }),
          avg_points: z.number(),
        }),
      )
      .openapi({
        description:
          "The quiz's questions in order, then any question deleted after it was graded: graded results keep it, so the analytics do too.",
      }),
  })
  .openapi("QuizAnalytics");

export const UserAnalytics = z
  .object({
    user_id: idSchema("user"),
    quizzes_taken: z.number().int().openapi({ description: "Distinct quizzes with a graded submission." }),
    avg_score: z.number(),
    total_attempts: z.number().int(),
    min_score: z.number().nullable(),
    max_score: z.number().nullable(),
    last_graded_at: z.string().datetime().nullable(),
  })
  .openapi("UserAnalytics");
