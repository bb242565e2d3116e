import { z } from "@hono/zod-openapi";
import { notFound } from "../../lib/errors";
import { createRouter, defineRoute, errorResponses } from "../../lib/openapi";
import { PROBLEM_CODES, PROBLEMS, type ProblemCode, problemPage } from "../../lib/problems";

const isCode = (code: string): code is ProblemCode => Object.hasOwn(PROBLEMS, code);

const getProblem = defineRoute({
  operationId: "getProblem",
  method: "get",
  path: "/{code}",
  tags: ["Problems"],
  security: [],
  summary: "Explain a problem code",
  description:
    "What a problem `code` means and what to do about it, as Markdown. Every problem body's `type` is the path of this page for its code.",
  request: {
    params: z.object({
      code: z
        .string()
        .max(64)
        .openapi({ description: "A problem code of the error catalogue.", example: "validation_failed", enum: PROBLEM_CODES }),
    }),
  },
  responses: {
    200: {
      description: "The code's page.",
      content: { "text/markdown": { schema: z.string().openapi({ example: problemPage("validation_failed") }) } },
    },
    // 400: a query parameter (the page takes none).
    ...errorResponses(400, 404),
  },
});

/** The error catalogue, one public page per problem code (/problems/<code>). */
export const problemsRouter = createRouter().openapi(getProblem, (c) => {
  const { code } = c.req.valid("param");
  if (!isCode(code)) throw notFound("Problem code");
  return c.body(problemPage(code), 200, { "content-type": "text/markdown; charset=utf-8" });
});
