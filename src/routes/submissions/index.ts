import { createRouter } from "../../lib/openapi";
import * as handlers from "./submissions.handlers";
import * as routes from "./submissions.routes";

/** `/v1/submissions`: one submission, its answers, its grade and its results. */
export const submissionsRouter = createRouter()
  .openapi(routes.getSubmission, handlers.getSubmission)
  .openapi(routes.replaceAnswers, handlers.replaceAnswers)
  .openapi(routes.saveAnswer, handlers.saveAnswer)
  .openapi(routes.gradeSubmission, handlers.gradeSubmission)
  .openapi(routes.getResults, handlers.getResults)
  .openapi(routes.reviewAnswer, handlers.reviewAnswer);

/** A quiz's submissions: mounted at `/v1/quizzes` (`/{id}/submissions`). */
export const quizSubmissionsRouter = createRouter()
  .openapi(routes.createSubmission, handlers.createSubmission)
  .openapi(routes.listQuizSubmissions, handlers.listQuizSubmissions);

/** A user's submissions: mounted at `/v1/users` (`/{id}/submissions`). */
export const userSubmissionsRouter = createRouter().openapi(routes.listUserSubmissions, handlers.listUserSubmissions);
