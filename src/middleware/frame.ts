import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { takeOverBody } from "./request-body";
import { logRequest, nameRequest } from "./request-log";
import { corsFromAllowList, learnerPreflight, setAnswerHeaders } from "./security-headers";
import { isLearnerPath } from "./session-guard";

/**
 * The one step every request passes first, in the order its parts need: the body is taken over
 * first, so that whatever answers, it has been read to its end before the answer leaves
 * (request-body.ts); the request id next, so that every answer and log line carries it; CORS,
 * when CORS_ALLOW_ORIGINS names origins (a preflight is answered there), and a learner route's
 * preflight (security-headers.ts learnerPreflight). On the way out: the
 * headers every answer carries, then the log line, which sees the final status and headers, then
 * the drain.
 */
export function requestFrame(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = Date.now();
    const drain = takeOverBody(c);
    try {
      nameRequest(c);
      const cors = corsFromAllowList(c.env);
      const preflight = learnerPreflight(c, isLearnerPath);
      if (preflight) c.res = preflight;
      else if (cors) {
        const preflight = await cors(c, next);
        if (preflight) c.res = preflight;
      } else await next();
      setAnswerHeaders(c);
      logRequest(c, started);
    } finally {
      await drain?.();
    }
  };
}
