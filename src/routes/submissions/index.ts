import { createRouter } from "../../lib/openapi";
import * as handlers from "./submissions.handlers";
import * as routes from "./submissions.routes";

/** `/v1/submissions`; creating and listing by quiz or user live under those resources. */
export const submissionsRouter = createRouter()
  .openapi(routes.getSubmission, handlers.getSubmission)
  .openapi(routes.replaceAnswers, handlers.replaceAnswers)
  .openapi(routes.gradeSubmission, handlers.gradeSubmission)
  .openapi(routes.getResults, handlers.getResults);
