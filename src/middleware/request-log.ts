import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../env";
import { logger } from "../lib/log";

/**
 * One JSON line per request, for `wrangler dev` and Workers Logs: the request id, the route
 * pattern (never the raw path, which could carry ids of personal data), the status, the
 * duration and the credential's id. Never a header, a body, a key or a token. An info line (a
 * status under 500), so LOG_LEVEL=warn (the tests') drops it.
 */
export function requestLog(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = Date.now();
    await next();
    const credential = c.get("credential");
    const line = {
      request_id: c.get("requestId"),
      method: c.req.method,
      route: routePath(c, -1),
      status: c.res.status,
      duration_ms: Date.now() - started,
      credential_id: credential?.id ?? null,
      credential_type: credential?.type ?? null,
    };
    const log = logger(c.env);
    if (c.res.status >= 500) log.error("request", line);
    else log.info("request", line);
  };
}
