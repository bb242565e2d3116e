import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../env";
import { ApiError, NO_STORE, OAuthError, problemBody } from "../lib/errors";
import { logUnexpectedError } from "../lib/log";

function problemResponse(c: Context<AppEnv>, error: ApiError): Response {
  for (const [name, value] of Object.entries(error.options.headers ?? {})) c.header(name, value);
  return c.body(JSON.stringify(problemBody(error, c.get("requestId") ?? "")), error.status, {
    "Content-Type": "application/problem+json",
  });
}

/** RFC 6749 §5.2's body, never cached. */
function oauthErrorResponse(c: Context<AppEnv>, error: OAuthError): Response {
  return c.json({ error: error.error, error_description: error.description }, error.status, { ...NO_STORE, ...error.headers });
}

const UNEXPECTED = "An unexpected error occurred; quote the request id.";

/**
 * The one error path. Under /oauth/* every error is answered in RFC 6749 §5.2's shape: an
 * OAuthError as itself, anything else logged and answered as server_error. Elsewhere ApiErrors
 * become problem bodies, and anything else is logged and becomes a bare 500.
 */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (c.req.path.startsWith("/oauth/")) {
    if (err instanceof OAuthError) return oauthErrorResponse(c, err);
    logUnexpectedError(c, err);
    return oauthErrorResponse(c, new OAuthError("server_error", UNEXPECTED, 500));
  }
  if (err instanceof ApiError) return problemResponse(c, err);
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own 4xx: the JSON validator's parse failure is the common one.
    const malformed = /JSON/i.test(err.message);
    return problemResponse(
      c,
      new ApiError(malformed ? "malformed_json" : "bad_request", malformed ? "The body is not valid JSON." : err.message),
    );
  }
  logUnexpectedError(c, err);
  return problemResponse(c, new ApiError("internal_error", UNEXPECTED));
};

interface KnownRoute {
  method: string;
  path: string;
}

/**
 * 404 for unknown paths; 405 with `Allow` when the path is known but the method is not.
 * The route table is read from the app once, on the first miss.
 */
export function notFoundOrMethodNotAllowed(routes: () => KnownRoute[]): NotFoundHandler<AppEnv> {
  let table: { pattern: RegExp; methods: Set<string> }[] | undefined;
  return (c) => {
    table ??= buildTable(routes());
    const path = new URL(c.req.url).pathname;
    const allowed = new Set<string>();
    for (const { pattern, methods } of table) if (pattern.test(path)) for (const m of methods) allowed.add(m);
    if (allowed.size === 0) return problemResponse(c, new ApiError("not_found", `No route matches ${path}.`));
    if (allowed.has("GET")) allowed.add("HEAD");
    const allow = [...allowed].sort().join(", ");
    return problemResponse(
      c,
      new ApiError("method_not_allowed", `${c.req.method} is not allowed on ${path}; use ${allow}.`, {
        headers: { Allow: allow },
      }),
    );
  };
}

function buildTable(routes: KnownRoute[]) {
  const byPath = new Map<string, Set<string>>();
  for (const { method, path } of routes) {
    if (method === "ALL" || path.includes("*")) continue;
    const methods = byPath.get(path) ?? new Set<string>();
    methods.add(method.toUpperCase());
    byPath.set(path, methods);
  }
  return [...byPath].map(([path, methods]) => ({
    // Exactly the paths the router serves (it is strict: /v1/quizzes/ is not /v1/quizzes), so that a
    // method a route allows is never answered 405 on a near-miss path.
    pattern: new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+/g, "[^/]+")}$`),
    methods,
  }));
}
