import { createRouter } from "../../lib/openapi";
import * as handlers from "./learner-sessions.handlers";
import * as routes from "./learner-sessions.routes";

/** `/v1/learner-sessions`: minting, reading and revoking learner tokens; `current` for the token itself. */
export const learnerSessionsRouter = createRouter()
  .openapi(routes.createLearnerSession, handlers.createLearnerSession)
  .openapi(routes.getCurrentLearnerSession, handlers.getCurrentLearnerSession)
  .openapi(routes.getLearnerSession, handlers.getLearnerSession)
  .openapi(routes.revokeLearnerSession, handlers.revokeLearnerSession);
