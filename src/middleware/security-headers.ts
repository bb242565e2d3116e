import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../env";

const PUBLIC_DOCUMENTS = new Set(["/openapi.json", "/docs", "/health", "/.well-known/oauth-authorization-server"]);

/**
 * `Cache-Control: no-store` on every answer but the public documents: answers carry personal
 * data or credentials, and no cache on the way may keep them.
 */
export function cacheControl(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (!c.res.headers.has("cache-control"))
      c.res.headers.set("Cache-Control", PUBLIC_DOCUMENTS.has(c.req.path) ? "public, max-age=300" : "no-store");
  };
}

/**
 * CORS is off unless CORS_ALLOW_ORIGINS names origins (comma-separated). No credentials mode:
 * credentials travel in headers, never in cookies.
 */
export function corsFromAllowList(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origins = (c.env.CORS_ALLOW_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean);
    if (origins.length === 0) return next();
    return cors({
      origin: origins,
      allowHeaders: ["Authorization", "X-API-Key", "Content-Type", "Idempotency-Key", "X-Request-Id"],
      exposeHeaders: ["Location", "Link", "X-Request-Id", "RateLimit", "RateLimit-Policy", "Retry-After"],
      maxAge: 600,
    })(c, next);
  };
}
