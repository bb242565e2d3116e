import type { Context, Handler } from "hono";
import type { AppEnv } from "../../env";
import { REALM } from "../../lib/scopes";
import { logUnexpectedError } from "../../middleware/errors";

/**
 * The OAuth endpoints answer errors in RFC 6749 §5.2's shape, `{ error, error_description }`,
 * not as problem details: OAuth client libraries parse that shape and nothing else. So these
 * endpoints never let an error reach the app's `onError`; `oauthEndpoint` turns each one into
 * that body right inside the handler.
 */
export const OAUTH_ERROR_CODES = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unsupported_grant_type",
  "invalid_scope",
  "server_error",
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** Token responses and their errors must not be cached (RFC 6749 §5.1); Pragma for HTTP/1.0 caches. */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" } as const;

type OAuthErrorStatus = 400 | 401 | 405 | 413 | 500;

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    /** Shown to the client. RFC 6749 allows only printable ASCII without `"` and `\`; never echo input here. */
    readonly description: string,
    readonly status: OAuthErrorStatus = error === "invalid_client" ? 401 : 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OAuthError";
  }
}

export const invalidRequest = (description: string) => new OAuthError("invalid_request", description);

/** RFC 6749 §5.2: a failed client authentication is a 401 with a challenge for the scheme we accept. */
export const invalidClient = (description = "Client authentication failed.") =>
  new OAuthError("invalid_client", description, 401, { "WWW-Authenticate": `Basic realm="${REALM}"` });

export function oauthErrorResponse(c: Context<AppEnv>, err: OAuthError): Response {
  return c.json({ error: err.error, error_description: err.description }, err.status, { ...NO_STORE, ...err.headers });
}

/**
 * Wraps an OAuth endpoint: an OAuthError becomes its RFC 6749 body; anything else is logged
 * (with the request id, never with the request's parameters, which hold secrets) and answered
 * as `server_error`.
 */
export function oauthEndpoint(handler: (c: Context<AppEnv>) => Promise<Response>): Handler<AppEnv> {
  return async (c) => {
    try {
      return await handler(c);
    } catch (err) {
      if (err instanceof OAuthError) return oauthErrorResponse(c, err);
      logUnexpectedError(c, err);
      return oauthErrorResponse(c, new OAuthError("server_error", "An unexpected error occurred; quote the request id.", 500));
    }
  };
}
