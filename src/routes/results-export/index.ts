import { createRouter } from "../../lib/openapi";
import * as handlers from "./results-export.handlers";
import * as routes from "./results-export.routes";

/** GET /v1/quizzes/{id}/results/export; mounted at /v1/quizzes. */
export const resultsExportRouter = createRouter().openapi(routes.exportResults, handlers.exportResults);
