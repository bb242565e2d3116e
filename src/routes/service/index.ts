import { createRouter } from "../../lib/openapi";
import * as handlers from "./service.handlers";
import * as routes from "./service.routes";

/**
 * GET /: the JSON answer. The HTML page a browser gets instead is a static asset, answered before
 * this route by the landing-page middleware (app.ts). The name and version are the app's (its
 * package.json), handed in by app.ts: routes read no file outside src/.
 */
export function serviceRouter(about: { name: string; version: string }) {
  return createRouter().openapi(routes.serviceIndex, handlers.serviceIndex(about));
}
