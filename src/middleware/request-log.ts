import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../env";

/**
 * One JSON line per request, for `wrangler dev` and Workers Logs: the request id, the route
 * pattern (never the raw path, which could carry ids of personal data), the status, the
 * duration and the credential's id. Never a header, a body, a key or a token.
 */
export function requestLog(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = Date.now();
    await next();
    const credential = c.get("credential");
    console.log(
      JSON.stringify({
        level: c.res.status >= 500 ? "error" : "info",
        message: "request",
        request_id: c.get("requestId"),
        method: c.req.method,
        route: routePath(c, -1),
        status: c.res.status,
        duration_ms: Date.now() - started,
        credential_id: credential?.id ?? null,
        credential_type: credential?.type ?? null,
      }),
    );
  };
}
