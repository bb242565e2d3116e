import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { frameOriginsOf } from "../../lti/tool/frame-origins";

/**
 * The pages an LTI launch lands on — the player (/play/) and the report (/reports/) — open inside
 * the LMS's frame, so their page's `frame-ancestors 'none'` becomes `'self'` plus every
 * registered platform's `frame_origins` (docs/lti.md); with none registered the page stays
 * unframable. The page's other directives stay; only HTML documents are touched (framing is a
 * document's policy), at one D1 read each.
 */
export function framableByPlatforms(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const policy = c.res.headers.get("content-security-policy");
    if (!policy?.includes("frame-ancestors 'none'") || !c.res.headers.get("content-type")?.startsWith("text/html")) return;
    const origins = await frameOriginsOf(c.var.db);
    if (origins.length === 0) return;
    const ancestors = ["frame-ancestors 'self'", ...origins].join(" ");
    c.res.headers.set("content-security-policy", policy.replace("frame-ancestors 'none'", ancestors));
  };
}
