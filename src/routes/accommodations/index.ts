import { createRouter } from "../../lib/openapi";
import * as handlers from "./accommodations.handlers";
import * as routes from "./accommodations.routes";

/** A quiz's per-user accommodations: mounted at `/v1/quizzes` (`/{id}/accommodations`). */
export const accommodationsRouter = createRouter()
  .openapi(routes.listAccommodations, handlers.listAccommodations)
  .openapi(routes.putAccommodation, handlers.putAccommodation)
  .openapi(routes.deleteAccommodation, handlers.deleteAccommodation);
