import { createRouter } from "../../lib/openapi";
import * as handlers from "./oauth-clients.handlers";
import * as routes from "./oauth-clients.routes";

export const oauthClientsRouter = createRouter()
  .openapi(routes.listClients, handlers.listClients)
  .openapi(routes.createClient, handlers.createClient)
  .openapi(routes.getClient, handlers.getClient)
  .openapi(routes.rotateSecret, handlers.rotateSecret)
  .openapi(routes.deleteClient, handlers.deleteClient);
