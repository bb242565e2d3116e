import { z } from "@hono/zod-openapi";
import { PROBLEM_CODES, problemPage } from "../../lib/problems";

export const ProblemParams = z.object({
  code: z
    .string()
    .max(64)
    .openapi({ description: "A problem code of the error catalogue.", example: "validation_failed", enum: PROBLEM_CODES }),
});

/** A code's page, as Markdown. */
export const ProblemPage = z.string().openapi({ example: problemPage("validation_failed") });
