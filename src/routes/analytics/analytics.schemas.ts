import { z } from "@hono/zod-openapi";
import { ITEM_ATTEMPTS, ITEM_FLAGS } from "../../domain/item-analysis";
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

export const ItemAnalysisQuery = z.strictObject({
  attempts: z.enum(ITEM_ATTEMPTS).default("all").openapi({
    description: "`all`: every graded submission; `first`: each user's earliest-created graded submission.",
  }),
});

export const ItemAnalysis = z
  .object({
    quiz_id: idSchema("quiz"),
    attempts: z.enum(ITEM_ATTEMPTS),
    n: z.number().int().openapi({ description: "Submissions counted." }),
    mean_points: z.number().nullable().openapi({ description: "Mean total points earned; null when n is 0." }),
    stddev_points: z.number().nullable().openapi({ description: "Population standard deviation of total points." }),
    reliability: z.number().nullable().openapi({
      description:
        "Cronbach's alpha (KR-20 when every item is right/wrong); null when fewer than 2 items, the total does not vary, or the counted submissions were not all presented the same questions.",
    }),
    items: z
      .array(
        z.object({
          question_id: idSchema("question"),
          n: z.number().int().openapi({ description: "Submissions presented the question (unanswered counts as 0 points)." }),
          difficulty: z
            .number()
            .nullable()
            .openapi({ description: "Mean points earned ÷ points possible (0–1); null when n is 0." }),
          discrimination: z.number().nullable().openapi({
            description:
              "Pearson correlation of the item's points with the rest of the total (total − item); null when either varies not at all.",
          }),
          flags: z.array(z.enum(ITEM_FLAGS)).openapi({
            description:
              "negative_discrimination (< 0), low_discrimination (< 0.2, negative included), too_easy (difficulty > 0.95), too_hard (< 0.2), distractor_attracts_strong (a wrong option with point_biserial > 0); none without the figure.",
          }),
          options: z
            .array(
              z.object({
                option_id: z.string(),
                count: z.number().int().openapi({ description: "Submissions presented the question that chose it." }),
                share: z.number().nullable().openapi({ description: "count ÷ the item's n; null when n is 0." }),
                mean_total: z
                  .number()
                  .nullable()
                  .openapi({ description: "Mean total points of those who chose it; null when nobody did." }),
                point_biserial: z.number().nullable().openapi({
                  description:
                    "Correlation of choosing it (1/0) with the total points; null when nobody or everybody chose it or the total does not vary.",
                }),
              }),
            )
            .optional()
            .openapi({ description: "Choice questions: distractor analysis of each current option, zeros included." }),
        }),
      )
      .openapi({ description: "The quiz's questions in order, then questions deleted after they were graded." }),
  })
  .openapi("ItemAnalysis");
