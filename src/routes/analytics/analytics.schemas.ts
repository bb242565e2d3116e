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
  .openapi("QuizAnalytics", {
    // 120 graded submissions of the examples' two-question quiz: 64 scored 100, 44 scored 50, 12 scored 0.
    example: {
      quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
      total_attempts: 120,
      unique_users: 87,
      avg_score: 71.67,
      min_score: 0,
      max_score: 100,
      stddev_score: 33.37,
      score_distribution: [
        { from: 0, to: 10, count: 12 },
        { from: 10, to: 20, count: 0 },
        { from: 20, to: 30, count: 0 },
        { from: 30, to: 40, count: 0 },
        { from: 40, to: 50, count: 0 },
        { from: 50, to: 60, count: 44 },
        { from: 60, to: 70, count: 0 },
        { from: 70, to: 80, count: 0 },
        { from: 80, to: 90, count: 0 },
        { from: 90, to: 100, count: 64 },
      ],
      questions: [
        {
          question_id: "qst_01kamz3f7c9n0p8s6e5vwx2y4r",
          attempts: 120,
          correct_count: 94,
          correct_rate: 0.7833,
          avg_points: 0.783333,
        },
        { question_id: "qst_01kamz3g1d2e3f4g5h6j7k8m9n", attempts: 120, correct_count: 78, correct_rate: 0.65, avg_points: 0.65 },
      ],
    },
  });

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
  .openapi("UserAnalytics", {
    example: {
      user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
      quizzes_taken: 1,
      avg_score: 75,
      total_attempts: 2,
      min_score: 50,
      max_score: 100,
      last_graded_at: "2026-11-22T09:30:00.000Z",
    },
  });

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
  .openapi("ItemAnalysis", {
    // The same 120 submissions as QuizAnalytics' example: the first question right in 94, the second in 78, both in 64.
    example: {
      quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
      attempts: "all",
      n: 120,
      mean_points: 1.433333,
      stddev_points: 0.667499,
      reliability: 0.216958,
      items: [
        {
          question_id: "qst_01kamz3f7c9n0p8s6e5vwx2y4r",
          n: 120,
          difficulty: 0.783333,
          discrimination: 0.122986,
          flags: ["low_discrimination"],
          options: [
            { option_id: "a", count: 94, share: 0.783333, mean_total: 1.680851, point_biserial: 0.705071 },
            { option_id: "b", count: 26, share: 0.216667, mean_total: 0.538462, point_biserial: -0.705071 },
          ],
        },
        {
          question_id: "qst_01kamz3g1d2e3f4g5h6j7k8m9n",
          n: 120,
          difficulty: 0.65,
          discrimination: 0.122986,
          flags: ["low_discrimination"],
        },
      ],
    },
  });
