import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { idSchema } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse, pageExample } from "../../lib/openapi";
import { nextCursorSchema } from "../../lib/pagination";
import {
  AnswerSave,
  AnswersPut,
  GradeResult,
  openSubmissionExample,
  Results,
  ReviewInput,
  SavedAnswer,
  SUBMISSION_EXAMPLE,
  Submission,
  SubmissionCreate,
  SubmissionListQuery,
} from "./submissions.schemas";

const tags = ["Submissions"];
const Params = z.object({ id: idSchema("submission") });
const SubmissionPage = z
  .object({ submissions: z.array(Submission), next_cursor: nextCursorSchema })
  .openapi({ example: pageExample("submissions", [SUBMISSION_EXAMPLE], SUBMISSION_EXAMPLE.id) });

/** Mounted under /v1/quizzes. */
export const createSubmission = defineRoute({
  operationId: "createSubmission",
  method: "post",
  path: "/{id}/submissions",
  tags,
  ...scoped("submissions:write", idempotent()),
  summary: "Start a submission to a quiz, optionally with answers",
  description:
    "Each answer must name a question of the quiz once, with a response of that question's type. More attempts than the quiz's max_attempts → 409 attempt_limit_reached.",
  request: { params: z.object({ id: idSchema("quiz") }), ...jsonBody(SubmissionCreate) },
  responses: {
    201: jsonResponse(
      Submission,
      "The open submission; Location names it.",
      openSubmissionExample("a", SUBMISSION_EXAMPLE.created_at),
    ),
    ...errorResponses(...BODY_ERRORS, 404, 409, ...COMMON_ERRORS),
  },
});

/** Mounted under /v1/quizzes. */
export const listQuizSubmissions = defineRoute({
  operationId: "listQuizSubmissions",
  method: "get",
  path: "/{id}/submissions",
  tags,
  ...scoped("submissions:read"),
  summary: "List a quiz's submissions, oldest first",
  description:
    "Returns the quiz's submissions, open and graded, oldest first. Keyset pagination: pass `next_cursor` back as `cursor` until it is null.",
  request: { params: z.object({ id: idSchema("quiz") }), query: SubmissionListQuery },
  responses: { 200: jsonResponse(SubmissionPage, "A page of submissions."), ...errorResponses(400, 404, ...COMMON_ERRORS) },
});

/** Mounted under /v1/users. */
export const listUserSubmissions = defineRoute({
  operationId: "listUserSubmissions",
  method: "get",
  path: "/{id}/submissions",
  tags,
  ...scoped("submissions:read"),
  summary: "List a user's submissions, oldest first",
  description:
    "Returns the user's submissions to every quiz, open and graded, oldest first. Keyset pagination: pass `next_cursor` back as `cursor` until it is null.",
  request: { params: z.object({ id: idSchema("user") }), query: SubmissionListQuery },
  responses: { 200: jsonResponse(SubmissionPage, "A page of submissions."), ...errorResponses(400, 404, ...COMMON_ERRORS) },
});

export const getSubmission = defineRoute({
  operationId: "getSubmission",
  method: "get",
  path: "/{id}",
  tags,
  ...scoped("submissions:read"),
  summary: "Get a submission",
  description: "Returns the submission with its status, answers and, once graded, its score.",
  request: { params: Params },
  responses: { 200: jsonResponse(Submission, "The submission."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const replaceAnswers = defineRoute({
  operationId: "replaceAnswers",
  method: "put",
  path: "/{id}/answers",
  tags,
  ...scoped("submissions:write"),
  summary: "Replace a submission's answers while it is open",
  description:
    "Replaces the whole set of answers; questions left out become unanswered. Once the submission is graded its answers are final → 409 submission_graded.",
  request: { params: Params, ...jsonBody(AnswersPut) },
  responses: {
    200: jsonResponse(Submission, "The submission with its new answers.", openSubmissionExample("b", "2026-11-22T08:05:00.000Z")),
    ...errorResponses(...BODY_ERRORS, 404, 409, ...COMMON_ERRORS),
  },
});

export const saveAnswer = defineRoute({
  operationId: "saveAnswer",
  method: "put",
  path: "/{id}/answers/{question_id}",
  tags,
  ...scoped("submissions:write"),
  summary: "Save one answer, order-safe, while the submission is open",
  description:
    "Stores the response when seq is higher than the question's stored seq (raise it with every edit; a millisecond clock serves). A save whose seq is not higher changes nothing and answers 200 with the stored answer and stale: true, so saves may arrive out of order, twice or concurrently. response null clears the answer. A question the submission does not present → 400; a submission no longer open (grading started) → 409 submission_graded; from deadline_at on → 409 deadline_passed. What is graded is the highest-seq answer stored before grading started.",
  request: {
    params: Params.extend({
      question_id: idSchema("question").openapi({
        param: { description: "A question the submission presents; one of the wrong prefix or shape → 404." },
      }),
    }),
    ...jsonBody(AnswerSave),
  },
  responses: {
    200: jsonResponse(SavedAnswer, "The question's stored answer: this save's, or (stale) the one that stays."),
    ...errorResponses(...BODY_ERRORS, 404, 409, ...COMMON_ERRORS),
  },
});

export const gradeSubmission = defineRoute({
  operationId: "gradeSubmission",
  method: "post",
  path: "/{id}/grade",
  tags,
  ...scoped("submissions:write", idempotent()),
  summary: "Close and grade a submission (idempotent)",
  description:
    "No body. Grades against the quiz's questions as they are now; unanswered questions earn 0. A second call, or any number of concurrent calls, returns the same result and counts once in analytics.",
  request: { params: Params },
  responses: { 200: jsonResponse(GradeResult, "The grade."), ...errorResponses(404, 409, ...COMMON_ERRORS) },
});

export const getResults = defineRoute({
  operationId: "getResults",
  method: "get",
  path: "/{id}/results",
  tags,
  ...scoped("submissions:read"),
  summary: "A graded submission's results, answer by answer",
  description: "correct_answer appears when the quiz's settings.show_correct_answers is on. Before grading → 409 not_graded.",
  request: { params: Params },
  responses: { 200: jsonResponse(Results, "The results."), ...errorResponses(404, 409, ...COMMON_ERRORS) },
});

export const reviewAnswer = defineRoute({
  operationId: "reviewAnswer",
  method: "put",
  path: "/{id}/reviews/{question_id}",
  tags,
  ...scoped("reviews:write"),
  summary: "Review an essay: its points and feedback",
  description:
    "Scores an answered essay of a submission that was graded or needs review (0 to the question's points) and sets the feedback its results show. When the last essay is reviewed the submission becomes graded, counts in every aggregate once and emits submission.graded; reviewing again later moves the aggregates like a regrade (submission.regraded). An open submission → 409 not_graded; an unanswered essay → 409 nothing_to_review; another question type → 400; a question the submission does not present → 404.",
  request: {
    params: Params.extend({
      question_id: idSchema("question").openapi({
        param: { description: "The essay's question id; one of the wrong prefix or shape → 404." },
      }),
    }),
    ...jsonBody(ReviewInput),
  },
  responses: {
    200: jsonResponse(GradeResult, "The submission's grade after the review.", {
      submission_id: "sub_01m8149t00psh8qzy0er9jjjew",
      score: 75,
      feedback: "7.5 of 10 points (75%).",
      points_earned: 7.5,
      points_possible: 10,
      status: "graded",
      graded_at: "2026-11-23T09:30:00.000Z",
    }),
    ...errorResponses(...BODY_ERRORS, 404, 409, ...COMMON_ERRORS),
  },
});
