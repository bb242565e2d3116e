import { createRouter } from "../../lib/openapi";
import * as handlers from "./api-keys.handlers";
import * as routes from "./api-keys.routes";

export const apiKeysRouter = createRouter()
  .openapi(routes.listApiKeys, handlers.listApiKeys)
  .openapi(routes.createApiKey, handlers.createApiKey)
  .openapi(routes.getApiKey, handlers.getApiKey)
  .openapi(routes.rotateApiKey, handlers.rotateApiKey)
  .openapi(routes.revokeApiKey, handlers.revokeApiKey)
  .openapi(routes.getApiKeyUsage, handlers.getApiKeyUsage);
