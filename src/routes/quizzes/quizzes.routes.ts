import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { DEPRECATION_RESPONSE_HEADERS } from "../../lib/deprecations";
import { idSchema } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse, pageExample } from "../../lib/openapi";
import { nextCursorSchema, pageQuery } from "../../lib/pagination";
import { CreatedQuiz, QUIZ_EXAMPLE, Quiz, QuizCreate, QuizPatch } from "./quizzes.schemas";

const tags = ["Quizzes"];
const Params = z.object({ id: idSchema("quiz") });

export const listQuizzes = defineRoute({
  operationId: "listQuizzes",
  method: "get",
  path: "/",
  tags,
  ...scoped("quizzes:read"),
  summary: "List quizzes, oldest first",
  description: "Returns quizzes oldest first. Keyset pagination: pass `next_cursor` back as `cursor` until it is null.",
  request: { query: z.strictObject(pageQuery("quiz")) },
  responses: {
    200: jsonResponse(
      z
        .object({ quizzes: z.array(Quiz), next_cursor: nextCursorSchema })
        .openapi({ example: pageExample("quizzes", [QUIZ_EXAMPLE], QUIZ_EXAMPLE.id) }),
      "A page of quizzes.",
    ),
    ...errorResponses(400, ...COMMON_ERRORS),
  },
});

export const createQuiz = defineRoute({
  operationId: "createQuiz",
  method: "post",
  path: "/",
  tags,
  ...scoped("quizzes:write", idempotent()),
  summary: "Create a quiz, optionally with its questions",
  description:
    "Creates the quiz and, in the same request, any questions sent with it, in the order given; either all are created or none. Its quiz.created event carries this answer as it is.",
  request: jsonBody(QuizCreate),
  responses: {
    201: {
      ...jsonResponse(CreatedQuiz, "The quiz with the ids of the questions created with it; Location names it."),
      headers: DEPRECATION_RESPONSE_HEADERS,
    },
    ...errorResponses(...BODY_ERRORS, ...COMMON_ERRORS),
  },
});

export const getQuiz = defineRoute({
  operationId: "getQuiz",
  method: "get",
  path: "/{id}",
  tags,
  ...scoped("quizzes:read"),
  summary: "Get a quiz",
  description: "Returns the quiz with its settings; its questions are listed by listQuestions.",
  request: { params: Params },
  responses: { 200: jsonResponse(Quiz, "The quiz."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const updateQuiz = defineRoute({
  operationId: "updateQuiz",
  method: "patch",
  path: "/{id}",
  tags,
  ...scoped("quizzes:write"),
  summary: "Change a quiz's title, description or settings",
  description:
    "Changes only the fields sent; the others keep their values. Its questions are changed through the question operations. An `available_until` moved earlier or a shorter `time_limit_seconds` moves the `deadline_at` of the quiz's open submissions earlier in the same write (never later); the cron grades them once past it.",
  request: { params: Params, ...jsonBody(QuizPatch) },
  responses: {
    200: {
      ...jsonResponse(Quiz, "The changed quiz.", {
        ...QUIZ_EXAMPLE,
        title: "Capitals of Europe, 2nd edition",
        settings: { ...QUIZ_EXAMPLE.settings, max_attempts: 5 },
        updated_at: "2026-11-23T09:30:00.000Z",
      }),
      headers: DEPRECATION_RESPONSE_HEADERS,
    },
    ...errorResponses(...BODY_ERRORS, 404, 409, ...COMMON_ERRORS),
  },
});

export const deleteQuiz = defineRoute({
  operationId: "deleteQuiz",
  method: "delete",
  path: "/{id}",
  tags,
  ...scoped("quizzes:write"),
  summary: "Delete a quiz and its questions",
  description: "Refused with 409 once the quiz has submissions, so that no result is lost.",
  request: { params: Params },
  responses: { 204: { description: "Deleted." }, ...errorResponses(404, 409, ...COMMON_ERRORS) },
});
