import { createRouter } from "../../lib/openapi";
import * as handlers from "./verify.handlers";
import * as routes from "./verify.routes";

/** Mounted at /v1/auth: `GET /verify`, what the credential sent may do. */
export const verifyRouter = createRouter().openapi(routes.verify, handlers.verify);
