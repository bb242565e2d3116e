import { createRouter } from "../../lib/openapi";
import * as keysHandlers from "./keys.handlers";
import * as keys from "./keys.routes";
import * as launchesHandlers from "./launches.handlers";
import * as launches from "./launches.routes";
import * as linksHandlers from "./links.handlers";
import * as links from "./links.routes";
import * as passbacksHandlers from "./passbacks.handlers";
import * as passbacks from "./passbacks.routes";
import * as platformsHandlers from "./platforms.handlers";
import * as platforms from "./platforms.routes";
import * as rosterHandlers from "./roster.handlers";
import * as roster from "./roster.routes";

/** `/v1/lti`: platforms, links, launches and their course rosters, the tool's keys and the passback ledger (docs/lti.md). */
export const ltiRouter = createRouter()
  .openapi(platforms.listPlatforms, platformsHandlers.listPlatforms)
  .openapi(platforms.createPlatform, platformsHandlers.createPlatform)
  .openapi(platforms.getPlatform, platformsHandlers.getPlatform)
  .openapi(platforms.updatePlatform, platformsHandlers.updatePlatform)
  .openapi(platforms.deletePlatform, platformsHandlers.deletePlatform)
  .openapi(links.putLink, linksHandlers.putLink)
  .openapi(launches.createLaunch, launchesHandlers.createLaunch)
  .openapi(roster.syncRoster, rosterHandlers.syncRoster)
  .openapi(roster.getRoster, rosterHandlers.getRoster)
  .openapi(keys.rotateKeys, keysHandlers.rotateKeys)
  .openapi(passbacks.listPassbacks, passbacksHandlers.listPassbacks)
  .openapi(passbacks.retryPassback, passbacksHandlers.retryPassback);

/** Mounted at /v1/quizzes: `POST /{id}/lti/resync`. */
export const quizLtiRouter = createRouter().openapi(passbacks.resyncQuiz, passbacksHandlers.resyncQuiz);

/** Mounted at the root: `GET /.well-known/jwks.json`, public. */
export const jwksRouter = createRouter().openapi(keys.jwks, keysHandlers.jwks);
