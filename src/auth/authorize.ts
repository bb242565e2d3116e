import type { Context, MiddlewareHandler } from "hono";
import { revealsKeys } from "../domain/reveal";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { hasScope, REALM, type Scope } from "../lib/scopes";

/**
 * Authorization: what a credential may do. Authentication (who is calling) happens before, in
 * the /v1 guard; each operation declares here, beside its route, the scope it needs.
 */

/** The scope a route needs, checked after authentication (RFC 6750 insufficient_scope). */
function requireScope(scope: Scope): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const credential = c.get("credential");
    if (!credential) throw new ApiError("unauthorized", "No credential.");
    if (!hasScope(credential.scopes, scope)) {
      throw new ApiError("insufficient_scope", `This operation needs the ${scope} scope.`, {
        headers: { "WWW-Authenticate": `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"` },
      });
    }
    c.set("authorized", true);
    await next();
  };
}

function securityFor(scopes: string[]): Record<string, string[]>[] {
  return [{ ApiKeyHeader: [] }, { BearerAuth: [] }, { OAuth2: scopes }];
}

/**
 * The scope an operation needs, declared beside its route: the OpenAPI security requirement and
 * the middleware that enforces it come from this one call. Middleware given after the scope runs
 * after its check (`scoped("quizzes:write", idempotent())`), so a replay is never served to a
 * credential that may not make the request.
 */
export function scoped(scope: Scope, ...after: MiddlewareHandler<AppEnv>[]) {
  return { security: securityFor([scope]), middleware: [requireScope(scope), ...after] };
}

/** Every one of several scopes, checked in order (the first missing one is named), like `scoped`. */
export function scopedAll(scopes: Scope[], ...after: MiddlewareHandler<AppEnv>[]) {
  return { security: securityFor(scopes), middleware: [...scopes.map(requireScope), ...after] };
}

/** Any valid credential, whatever its scopes. */
export const authenticated = {
  security: securityFor([]),
  middleware: [
    (async (c, next) => {
      c.set("authorized", true);
      await next();
    }) satisfies MiddlewareHandler<AppEnv>,
  ],
};

/** Whether the caller sees questions' answer keys: the credential read here, the rule in domain/reveal. */
export function canSeeAnswerKeys(c: Context<AppEnv>): boolean {
  const credential = c.get("credential");
  return credential !== undefined && revealsKeys(credential.scopes);
}
