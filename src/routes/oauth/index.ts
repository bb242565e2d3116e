import { createRouter } from "../../lib/openapi";
import * as handlers from "./oauth.handlers";
import * as routes from "./oauth.routes";

/**
 * The OAuth 2.0 authorization server, mounted at the root: /oauth/* and /.well-known/*.
 * The POST endpoints read their own bodies and throw OAuthErrors, which onError answers in RFC
 * 6749 §5.2's shape under /oauth/*; so they are plain handlers whose documentation is registered
 * from their route definitions by hand.
 */
export const oauthRouter = createRouter();

oauthRouter.openAPIRegistry.registerComponent("securitySchemes", routes.CLIENT_SECRET_BASIC, {
  type: "http",
  scheme: "basic",
  description:
    "OAuth client authentication (client_secret_basic): base64 of url-encoded client_id, a colon, url-encoded client_secret. " +
    "Alternatively send client_id and client_secret in the body (client_secret_post).",
});

const posts = [routes.token, routes.revoke, routes.introspect];
for (const route of posts) oauthRouter.openAPIRegistry.registerPath(route);

oauthRouter
  .post(routes.token.path, handlers.token)
  .post(routes.revoke.path, handlers.revoke)
  .post(routes.introspect.path, handlers.introspect);
// Every other method (OPTIONS, HEAD, PROPFIND, … too): without this, a wrong method would get the
// app's 405 problem body, whose Allow would list the methods registered here; /oauth/* answers
// RFC 6749 errors with Allow: POST.
for (const route of posts) oauthRouter.all(route.path, handlers.methodNotAllowed);
oauthRouter.openapi(routes.metadata, handlers.metadata);
