import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idSchema } from "../../lib/ids";
import { COMMON_ERRORS, defineRoute, errorResponses } from "../../lib/openapi";
import { GIFT_EXAMPLE, MOODLE_XML_EXAMPLE, QTI_PACKAGE_EXAMPLE, QUIZ_EXPORT_HEADERS, QuizExportQuery } from "./export.schemas";

export const exportQuiz = defineRoute({
  operationId: "exportQuiz",
  method: "get",
  path: "/{id}/export",
  tags: ["Quizzes"],
  // Exports carry the answer keys, feedback and explanations: only for credentials that may write quizzes.
  ...scoped("quizzes:write"),
  summary: "Export a quiz as a QTI package, GIFT or Moodle XML",
  description: [
    "The quiz's questions in order, with their keys, points, titles, tags, feedback (option feedback included) and explanations, in a file the format's tools import (docs/import-export.md has the mapping). Importing it again (`POST /v1/imports`) gives questions that award the same points to every response.",
    "A question the format cannot express is left out of the file, named in a comment at its top and in the `Export-Skipped` header: GIFT cannot express ordering, all-or-nothing scoring over several parts, case-sensitive answers or more than one blank; Moodle XML all-or-nothing matching and blanks over several parts; QTI expresses every type.",
  ].join("\n\n"),
  request: { params: z.object({ id: idSchema("quiz") }), query: QuizExportQuery },
  responses: {
    200: {
      description: "The file, as an attachment.",
      headers: QUIZ_EXPORT_HEADERS,
      content: {
        "application/zip": {
          schema: z.string().openapi({
            format: "binary",
            description: "A zip archive (IMS content package): its manifest, the assessment test, one item per question.",
            example: QTI_PACKAGE_EXAMPLE,
          }),
        },
        "text/plain; charset=utf-8": { schema: z.string().openapi({ example: GIFT_EXAMPLE }) },
        "application/xml": { schema: z.string().openapi({ example: MOODLE_XML_EXAMPLE }) },
      },
    },
    ...errorResponses(400, 404, ...COMMON_ERRORS),
  },
});
