import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";
import { expiresInSchema } from "../../sessions/lifetime";
import { MAX_REPORT_QUIZZES } from "../../sessions/report-sessions";

const TOKEN_EXAMPLE = "qz_vt_8pWm2Qx5Zr1Lc7Nd0Ve3Yb9Ku4Hj6Tf2Sa8Go1Mi5Re";
const QUIZ = "quiz_01kamz3f7c9n0p8s6e5vwx2y4r";

export const ReportSessionCreate = z
  .strictObject({
    quiz_ids: z
      .array(idSchema("quiz"))
      .min(1)
      .max(MAX_REPORT_QUIZZES)
      .openapi({ description: "The quizzes the token reads, 1 to 50; an unknown quiz → 400 naming it." }),
    expires_in: expiresInSchema,
  })
  .openapi("ReportSessionCreate", { example: { quiz_ids: [QUIZ], expires_in: 3600 } });

const fields = {
  id: idSchema("reportSession"),
  quiz_ids: z.array(idSchema("quiz")),
  expires_at: z.string().datetime(),
  created_at: z.string().datetime(),
};
const EXAMPLE = {
  id: "rse_01kamz3f7c9n0p8s6e5vwx2y4r",
  quiz_ids: [QUIZ],
  expires_at: "2026-11-22T09:00:00.000Z",
  created_at: "2026-11-22T08:00:00.000Z",
};

export const ReportSession = z
  .object({ ...fields, revoked_at: z.string().datetime().nullable() })
  .openapi("ReportSession", { example: { ...EXAMPLE, revoked_at: null }, description: "Never the token." });

export const CreatedReportSession = z
  .object({
    ...fields,
    token: z.string().openapi({ description: "The report token, qz_vt_…: shown this once, stored only as its SHA-256." }),
    report_url: z
      .string()
      .url()
      .openapi({ description: "The report page signed in with it: `<origin>/reports/#session=<token>`." }),
  })
  .openapi("CreatedReportSession", {
    example: { ...EXAMPLE, token: TOKEN_EXAMPLE, report_url: `https://quiz.example.com/reports/#session=${TOKEN_EXAMPLE}` },
  });
