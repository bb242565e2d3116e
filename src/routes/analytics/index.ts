import { createRouter } from "../../lib/openapi";
import * as handlers from "./analytics.handlers";
import * as routes from "./analytics.routes";

/** `/v1/analytics`: a quiz's and a user's figures, and a quiz's item analysis, kept current at grade time. */
export const analyticsRouter = createRouter()
  .openapi(routes.getQuizAnalytics, handlers.getQuizAnalytics)
  .openapi(routes.getItemAnalysis, handlers.getItemAnalysis)
  .openapi(routes.getUserAnalytics, handlers.getUserAnalytics);
