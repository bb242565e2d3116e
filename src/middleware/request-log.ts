import type { Context } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../env";
import { logger } from "../lib/log";

const REQUEST_ID_HEADER = "X-Request-Id";
/** The longest caller's request id kept; a longer one is replaced. */
const MAX_REQUEST_ID_LENGTH = 255;
const REQUEST_ID_UNSAFE = /[^\w\-=]/;

/**
 * The request id every answer and log line carries: the caller's `X-Request-Id` when it is sane
 * (at most 255 word characters, `-` and `=`, as Hono's requestId middleware takes it), else a
 * fresh UUID. Set as `c.var.requestId` and on the answer.
 */
export function nameRequest(c: Context<AppEnv>): void {
  let id = c.req.header(REQUEST_ID_HEADER);
  if (!id || id.length > MAX_REQUEST_ID_LENGTH || REQUEST_ID_UNSAFE.test(id)) id = crypto.randomUUID();
  c.set("requestId", id);
  c.header(REQUEST_ID_HEADER, id);
}

/**
 * One JSON line per request, for `wrangler dev` and Workers Logs, written once the answer is
 * final: the request id, the route pattern (never the raw path, which could carry ids of
 * personal data), the status, the duration and the credential's id. Never a header, a body, a
 * key or a token. An info line (a status under 500), so LOG_LEVEL=warn (the tests') drops it.
 */
export function logRequest(c: Context<AppEnv>, startedMs: number): void {
  const credential = c.get("credential");
  const line = {
    request_id: c.get("requestId"),
    method: c.req.method,
    route: routePath(c, -1),
    status: c.res.status,
    duration_ms: Date.now() - startedMs,
    credential_id: credential?.id ?? null,
    credential_type: credential?.type ?? null,
  };
  const log = logger(c.env);
  if (c.res.status >= 500) log.error("request", line);
  else log.info("request", line);
}
