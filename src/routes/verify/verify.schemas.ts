import { z } from "@hono/zod-openapi";

export const Verification = z
  .object({
    status: z.literal("success"),
    message: z.literal("Authentication successful"),
    credential: z.object({
      type: z.enum(["api_key", "access_token", "learner_session", "report_session"]),
      id: z.string().openapi({
        description: "The key's id, the OAuth client's id for an access token, or a report session's rse_… id (§17).",
      }),
      scopes: z.array(z.string()),
      expires_at: z.string().datetime().nullable(),
    }),
  })
  .openapi("Verification", {
    example: {
      status: "success",
      message: "Authentication successful",
      credential: {
        type: "api_key",
        id: "key_01kamz3f7c9n0p8s6e5vwx2y4r",
        scopes: ["quizzes:read", "submissions:write"],
        expires_at: "2030-06-30T00:00:00.000Z",
      },
    },
  });
