import { z } from "@hono/zod-openapi";
import { MAX_SESSION_ORIGINS } from "../../domain/session-origins";
import { idSchema } from "../../lib/ids";
import { expiresInSchema } from "../../sessions/lifetime";

const TOKEN_EXAMPLE = "qz_lt_3kTq9V0bXw2LrN7aPz5YcE1mJd8uHs4fGi6oKt0Rn2W";
const SESSION_ID = "lse_01kamz3f7c9n0p8s6e5vwx2y4r";

export const LearnerSessionCreate = z
  .strictObject({
    user_id: idSchema("user").openapi({ description: "The learner; an unknown or deleted user → 400 naming user_id." }),
    quiz_id: idSchema("quiz").openapi({ description: "The quiz the token takes; an unknown quiz → 400 naming quiz_id." }),
    expires_in: expiresInSchema,
    origins: z
      .array(z.string().max(300))
      .max(MAX_SESSION_ORIGINS)
      .default([])
      .openapi({
        description:
          "Origins a browser may call the API from with the token (CORS): `https://host[:port]` without a path (or `http://localhost|127.0.0.1[:port]` where the deployment allows loopback); at most 10. The service's own player needs none.",
        example: ["https://school.example.org"],
      }),
    return_url: z.string().max(2048).nullable().default(null).openapi({
      description: "Where the player's result links back to: an https URL to a public host; null: no link.",
      example: "https://school.example.org/courses/7",
    }),
  })
  .openapi("LearnerSessionCreate", {
    example: {
      user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
      quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
      expires_in: 3600,
      origins: ["https://school.example.org"],
      return_url: "https://school.example.org/courses/7",
    },
  });

const fields = {
  id: idSchema("learnerSession"),
  user_id: idSchema("user"),
  quiz_id: idSchema("quiz"),
  origins: z.array(z.string()),
  return_url: z.string().nullable(),
  lti_launch_id: z
    .string()
    .nullable()
    .openapi({ description: "The LTI launch the session was minted for (§18); null otherwise." }),
  expires_at: z.string().datetime(),
  created_at: z.string().datetime(),
};

const EXAMPLE = {
  id: SESSION_ID,
  user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
  quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
  origins: ["https://school.example.org"],
  return_url: "https://school.example.org/courses/7",
  lti_launch_id: null,
  expires_at: "2026-11-22T09:00:00.000Z",
  created_at: "2026-11-22T08:00:00.000Z",
};

export const LearnerSession = z
  .object({ ...fields, revoked_at: z.string().datetime().nullable() })
  .openapi("LearnerSession", { example: { ...EXAMPLE, revoked_at: null }, description: "Never the token." });

export const CreatedLearnerSession = z
  .object({
    ...fields,
    token: z.string().openapi({ description: "The learner token, qz_lt_…: shown this once, stored only as its SHA-256." }),
    player_url: z
      .string()
      .url()
      .openapi({ description: "The service's player for this session: `<origin>/play/#session=<token>`." }),
  })
  .openapi("CreatedLearnerSession", {
    example: { ...EXAMPLE, token: TOKEN_EXAMPLE, player_url: `https://quiz.example.com/play/#session=${TOKEN_EXAMPLE}` },
  });

export const CurrentLearnerSession = z
  .object({
    session: z.object({ id: idSchema("learnerSession"), expires_at: z.string().datetime(), return_url: z.string().nullable() }),
    user: z.object({ id: idSchema("user"), name: z.string().nullable() }),
    quiz: z.object({
      id: idSchema("quiz"),
      title: z.string(),
      description: z.string(),
      questions: z.number().int().openapi({ description: "How many questions a submission presents (pools drawn)." }),
      settings: z.object({
        time_limit_seconds: z.number().int().nullable(),
        available_from: z.string().nullable(),
        available_until: z.string().nullable(),
        max_attempts: z.number().int().nullable(),
        show_correct_answers: z.string(),
      }),
    }),
    attempts: z.object({
      used: z.number().int().openapi({ description: "The user's submissions of the quiz, open or graded." }),
      allowed: z.number().int().nullable().openapi({ description: "max_attempts plus extra attempts; null: unlimited." }),
    }),
    submissions: z.array(
      z.object({
        id: idSchema("submission"),
        status: z.string(),
        score: z.number().nullable(),
        created_at: z.string().datetime(),
        deadline_at: z.string().datetime().nullable(),
      }),
    ),
  })
  .openapi("CurrentLearnerSession", {
    example: {
      session: { id: SESSION_ID, expires_at: EXAMPLE.expires_at, return_url: EXAMPLE.return_url },
      user: { id: EXAMPLE.user_id, name: "Ada Lovelace" },
      quiz: {
        id: EXAMPLE.quiz_id,
        title: "Capitals",
        description: "",
        questions: 2,
        settings: {
          time_limit_seconds: 1800,
          available_from: null,
          available_until: null,
          max_attempts: 2,
          show_correct_answers: "after_last_attempt",
        },
      },
      attempts: { used: 1, allowed: 2 },
      submissions: [
        {
          id: "sub_01kamz3f7c9n0p8s6e5vwx2y4r",
          status: "graded",
          score: 50,
          created_at: "2026-11-22T08:00:00.000Z",
          deadline_at: "2026-11-22T08:30:00.000Z",
        },
      ],
    },
  });
