import type { Handler, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env";
import { config } from "../lib/config";
import { DOCS_CONTENT_SECURITY_POLICY } from "../lib/docs-csp";

const PUBLIC_DOCUMENTS = new Set(["/openapi.json", "/docs", "/health", "/.well-known/oauth-authorization-server"]);
/** Public documents that name an origin: ISSUER's, or else the request's (its Host header). */
const ORIGIN_NAMING_DOCUMENTS = new Set(["/openapi.json", "/.well-known/oauth-authorization-server"]);

/**
 * `Cache-Control: no-store` on every answer but the public documents: answers carry personal
 * data or credentials, and no cache on the way may keep them. A document that names the
 * request's own origin (ISSUER empty) is no-store too: a shared cache would otherwise serve the
 * origin one request's Host header claimed to every later caller (host poisoning).
 */
export function cacheControl(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.headers.has("cache-control")) return;
    const path = c.req.path;
    const cacheable =
      c.res.status === 200 && PUBLIC_DOCUMENTS.has(path) && (!ORIGIN_NAMING_DOCUMENTS.has(path) || config(c.env).issuer !== null);
    c.res.headers.set("Cache-Control", cacheable ? "public, max-age=300" : "no-store");
  };
}

/**
 * GET /docs and /docs/*: the file from Workers static assets ([assets] in wrangler.toml, binding
 * ASSETS), as a new response (the asset's headers are immutable) that this worker's middleware
 * adds its headers to, plus the docs' Content-Security-Policy. A path with no file is the API's own 404.
 */
export function docsAssets(): Handler<AppEnv> {
  return async (c) => {
    if (!c.env.ASSETS) throw new Error("no ASSETS binding: /docs needs [assets] in wrangler.toml");
    const asset = await c.env.ASSETS.fetch(c.req.raw);
    if (asset.status === 404) return c.notFound();
    const headers = new Headers(asset.headers);
    headers.set("Content-Security-Policy", DOCS_CONTENT_SECURITY_POLICY);
    // c.body, not new Response(asset.body, asset): it also keeps the headers middleware set
    // before this handler ran (X-Request-Id).
    const init = { status: asset.status as ContentfulStatusCode, statusText: asset.statusText, headers };
    return asset.body === null ? c.body(null, init) : c.body(asset.body, init);
  };
}

/**
 * CORS is off unless CORS_ALLOW_ORIGINS names origins (comma-separated). No credentials mode:
 * credentials travel in headers, never in cookies.
 */
export function corsFromAllowList(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origins = config(c.env).corsAllowOrigins;
    if (origins.length === 0) return next();
    return cors({
      origin: origins,
      allowHeaders: ["Authorization", "X-API-Key", "Content-Type", "Idempotency-Key", "X-Request-Id", "X-D1-Bookmark"],
      exposeHeaders: ["Location", "Link", "X-Request-Id", "RateLimit", "RateLimit-Policy", "Retry-After", "X-D1-Bookmark"],
      maxAge: 600,
    })(c, next);
  };
}
