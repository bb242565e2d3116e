import { createRouter } from "../../lib/openapi";
import * as handlers from "./regrade.handlers";
import * as routes from "./regrade.routes";

/** Mounted at /v1/quizzes: `POST /{id}/regrade`. */
export const regradeRouter = createRouter().openapi(routes.regradeQuiz, handlers.regradeQuiz);
