import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { identify, recordKeyUse } from "./authenticate";
import { jsonBodyGuard, type UploadRules } from "./json-body";
import { countCaller } from "./rate-limit";
import { guardSession } from "./session-guard";

/**
 * The one guard of /v1, one step that runs its checks in their order: identify the caller (a
 * client IP already over its budget is refused before its credential is looked up), count it
 * (per credential, else per IP: 429 past the limit), refuse it without a valid credential (401,
 * or 400 for conflicting headers), hold a learner or report token to its session's table of
 * operations (403, 404: session-guard.ts), then check its body (415, 413: json-body.ts). Routes declare
 * the scope they need beside their definition. An API key's use is counted once its answer is
 * known, a refusal here included.
 */
export function v1Guard(uploads: UploadRules): MiddlewareHandler<AppEnv> {
  const checkBody = jsonBodyGuard(uploads);
  return async (c, next) => {
    const identified = await identify(c);
    if (identified instanceof ApiError) {
      await countCaller(c, undefined);
      throw identified;
    }
    c.set("credential", identified);
    let refused = true;
    try {
      await countCaller(c, identified);
      await guardSession(c, identified);
      await checkBody(c, next);
      refused = false;
    } finally {
      // A refusal thrown here has no answer yet (onError writes it): it failed.
      if (identified.type === "api_key") recordKeyUse(c, identified.id, refused || c.res.status >= 400);
    }
  };
}

/**
 * The guard of the few /v1 reads that need no credential (an asset's bytes: its id is 160 random
 * bits), mounted before v1Guard for GET and HEAD only: counted per client IP under the anonymous
 * limit (429 past it) whatever credential is sent, which is never looked up. Other methods on the
 * same paths go on to v1Guard.
 */
export function publicReadGuard(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    await countCaller(c, undefined);
    await next();
  };
}
