import { createRouter } from "../../lib/openapi";
import * as handlers from "./events.handlers";
import * as routes from "./events.routes";

export const eventsRouter = createRouter()
  .openapi(routes.listEvents, handlers.listEvents)
  .openapi(routes.getEvent, handlers.getEvent)
  .openapi(routes.redeliverEvent, handlers.redeliverEvent);
