import { createRouter } from "../../lib/openapi";
import * as handlers from "./jobs.handlers";
import * as routes from "./jobs.routes";

/** `/v1/jobs`: long work run in the background (regrades, imports, LTI resyncs). */
export const jobsRouter = createRouter()
  .openapi(routes.getJob, handlers.getJob)
  .openapi(routes.listJobChanges, handlers.listJobChanges);
