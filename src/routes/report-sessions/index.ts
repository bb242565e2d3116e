import { createRouter } from "../../lib/openapi";
import * as handlers from "./report-sessions.handlers";
import * as routes from "./report-sessions.routes";

/** `/v1/report-sessions`: minting, reading and revoking report tokens. */
export const reportSessionsRouter = createRouter()
  .openapi(routes.createReportSession, handlers.createReportSession)
  .openapi(routes.getReportSession, handlers.getReportSession)
  .openapi(routes.revokeReportSession, handlers.revokeReportSession);
