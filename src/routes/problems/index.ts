import { createRouter } from "../../lib/openapi";
import * as handlers from "./problems.handlers";
import * as routes from "./problems.routes";

/** The error catalogue, one public page per problem code (/problems/<code>). */
export const problemsRouter = createRouter().openapi(routes.getProblem, handlers.getProblem);
