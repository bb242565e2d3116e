import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { Question, QuestionCreate, QuestionPatch } from "../../authoring/question.schemas";
import { idSchema } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { CREATED_QUESTION_EXAMPLE, QuestionListQuery, QuestionPage, UPDATED_QUESTION_EXAMPLE } from "./questions.schemas";

const tags = ["Questions"];
const QuizParams = z.object({ id: idSchema("quiz") });
const QuestionParams = z.object({ id: idSchema("quiz"), question_id: idSchema("question") });

export const listQuestions = defineRoute({
  operationId: "listQuestions",
  method: "get",
  path: "/{id}/questions",
  tags,
  ...scoped("quizzes:read"),
  summary: "List a quiz's questions in order",
  description:
    "Returns the quiz's questions by position, first to last; with `tag`, only those carrying that tag. To a credential without quizzes:write the key is hidden: no key fields, `feedback` `{}`, `explanation` null, no option feedback, ordering items and matching choices sorted by id. Keyset pagination: pass `next_cursor` back as `cursor` until it is null.",
  request: {
    params: QuizParams,
    query: QuestionListQuery,
  },
  responses: {
    200: jsonResponse(QuestionPage, "A page of questions."),
    ...errorResponses(400, 404, ...COMMON_ERRORS),
  },
});

export const createQuestion = defineRoute({
  operationId: "createQuestion",
  method: "post",
  path: "/{id}/questions",
  tags,
  ...scoped("quizzes:write", idempotent()),
  summary: "Add a question to a quiz",
  description:
    "Adds the question at `position` (default: last); the questions at and after it move down one. A quiz holds at most 200 questions → 409 question_limit_reached. Ordering item and matching choice ids left out are random; an ordering without correct_order is in the order its items are listed; a matching may be written as pairs and distractors.",
  request: { params: QuizParams, ...jsonBody(QuestionCreate) },
  responses: {
    201: jsonResponse(Question, "The question, with its Location.", CREATED_QUESTION_EXAMPLE),
    ...errorResponses(...BODY_ERRORS, 404, 409, ...COMMON_ERRORS),
  },
});

export const getQuestion = defineRoute({
  operationId: "getQuestion",
  method: "get",
  path: "/{id}/questions/{question_id}",
  tags,
  ...scoped("quizzes:read"),
  summary: "Get a question",
  description:
    "Returns one question of the quiz: with its answer key, feedback and explanation to a credential holding quizzes:write; to others without them, ordering items and matching choices sorted by id.",
  request: { params: QuestionParams },
  responses: { 200: jsonResponse(Question, "The question."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const updateQuestion = defineRoute({
  operationId: "updateQuestion",
  method: "patch",
  path: "/{id}/questions/{question_id}",
  tags,
  ...scoped("quizzes:write"),
  summary: "Change a question",
  description:
    "Fields not sent keep their values; the result must be a valid question. Changing `type` drops the old type's key fields; a matching's `pairs` replace its prompts, choices and correct_matches; an ordering's items sent with ids left out and without correct_order are the order as listed. Graded submissions keep the grade they were given.",
  request: { params: QuestionParams, ...jsonBody(QuestionPatch) },
  responses: {
    200: jsonResponse(Question, "The changed question.", UPDATED_QUESTION_EXAMPLE),
    ...errorResponses(...BODY_ERRORS, 404, 409, ...COMMON_ERRORS),
  },
});

export const deleteQuestion = defineRoute({
  operationId: "deleteQuestion",
  method: "delete",
  path: "/{id}/questions/{question_id}",
  tags,
  ...scoped("quizzes:write"),
  summary: "Delete a question",
  description: "Removes the question; the questions after it move up one position.",
  request: { params: QuestionParams },
  responses: { 204: { description: "Deleted." }, ...errorResponses(404, 409, ...COMMON_ERRORS) },
});
