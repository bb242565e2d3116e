import { createRouter } from "../../lib/openapi";
import * as ledger from "./ledger.routes";
import * as handlers from "./lti.handlers";
import * as platforms from "./platforms.routes";

/** `/v1/lti`: platforms, links, launches, the tool's keys and the passback ledger (docs/lti.md). */
export const ltiRouter = createRouter()
  .openapi(platforms.listPlatforms, handlers.listPlatforms)
  .openapi(platforms.createPlatform, handlers.createPlatform)
  .openapi(platforms.getPlatform, handlers.getPlatform)
  .openapi(platforms.updatePlatform, handlers.updatePlatform)
  .openapi(platforms.deletePlatform, handlers.deletePlatform)
  .openapi(platforms.putLink, handlers.putLink)
  .openapi(ledger.createLaunch, handlers.createLaunch)
  .openapi(ledger.rotateKeys, handlers.rotateKeys)
  .openapi(ledger.listPassbacks, handlers.listPassbacks)
  .openapi(ledger.retryPassback, handlers.retryPassback);

/** Mounted at /v1/quizzes: `POST /{id}/lti/resync`. */
export const quizLtiRouter = createRouter().openapi(ledger.resyncQuiz, handlers.resyncQuiz);

/** Mounted at the root: `GET /.well-known/jwks.json`, public. */
export const jwksRouter = createRouter().openapi(ledger.jwks, handlers.jwks);
