import { defineRoute, errorResponses } from "../../lib/openapi";
import { ProblemPage, ProblemParams } from "./problems.schemas";

export const getProblem = defineRoute({
  operationId: "getProblem",
  method: "get",
  path: "/{code}",
  tags: ["Problems"],
  security: [],
  summary: "Explain a problem code",
  description:
    "What a problem `code` means and what to do about it, as Markdown. Every problem body's `type` is the path of this page for its code.",
  request: { params: ProblemParams },
  responses: {
    200: {
      description: "The code's page.",
      content: { "text/markdown": { schema: ProblemPage } },
    },
    // 400: a query parameter (the page takes none).
    ...errorResponses(400, 404),
  },
});
