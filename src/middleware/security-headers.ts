import type { Context, Handler, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env";
import { config } from "../lib/config";
import {
  DOCS_CONTENT_SECURITY_POLICY,
  PLAYER_CONTENT_SECURITY_POLICY,
  REPORTS_CONTENT_SECURITY_POLICY,
  SHARED_CONTENT_SECURITY_POLICY,
} from "../lib/docs-csp";

const PUBLIC_DOCUMENTS = new Set(["/", "/openapi.json", "/docs", "/health", "/.well-known/oauth-authorization-server"]);
/** Public documents that name an origin: ISSUER's, or else the request's (its Host header). */
const ORIGIN_NAMING_DOCUMENTS = new Set(["/openapi.json", "/.well-known/oauth-authorization-server"]);

/**
 * The headers that still do something for a JSON API and its docs page (OWASP's REST Security
 * Cheat Sheet: HSTS, nosniff, framing refused, no referrer, same-origin resources and opener),
 * with the values Hono's secureHeaders gives them (X-Frame-Options: DENY rather than its
 * SAMEORIGIN). Hono's legacy browser headers (X-XSS-Protection, X-Download-Options,
 * X-DNS-Prefetch-Control, X-Permitted-Cross-Domain-Policies, Origin-Agent-Cluster) are left out:
 * every header is copied on every answer, and these protect nothing here. Built once; each answer
 * gets them in one pass over this list, replacing any a handler set, but for an answer's own
 * `Cross-Origin-Resource-Policy: cross-origin` (an asset's bytes, which pages of other origins
 * show as images). (secureHeaders also deleted X-Powered-By, which nothing here sets.)
 */
const SECURITY_HEADERS: readonly (readonly [name: string, value: string])[] = Object.freeze([
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
] as const);

/**
 * The headers every answer carries, set on the final answer in one pass: the security headers
 * above, `Date`, and `Cache-Control: no-store` unless the answer set its own or is a public document
 * that may be cached. Answers carry personal data or credentials, and no cache on the way may
 * keep them. A document that names the request's own origin (ISSUER empty) is no-store too: a
 * shared cache would otherwise serve the origin one request's Host header claimed to every
 * later caller (host poisoning).
 */
export function setAnswerHeaders(c: Context<AppEnv>): void {
  const res = c.res;
  const headers = res.headers;
  if (!headers.has("cache-control")) {
    const path = c.req.path;
    const cacheable =
      res.status === 200 && PUBLIC_DOCUMENTS.has(path) && (!ORIGIN_NAMING_DOCUMENTS.has(path) || config(c.env).issuer !== null);
    headers.set("Cache-Control", cacheable ? "public, max-age=300" : "no-store");
  }
  // A page whose policy names its own frame-ancestors (the LTI tool's, framed by an LMS) keeps
  // that as its only framing rule: X-Frame-Options: DENY would otherwise refuse every frame in
  // browsers that read it alone.
  const framable = /frame-ancestors 'self'/.test(headers.get("content-security-policy") ?? "");
  const crossOrigin = headers.get("cross-origin-resource-policy") === "cross-origin";
  for (const [name, value] of SECURITY_HEADERS) if (!(framable && name === "X-Frame-Options")) headers.set(name, value);
  if (crossOrigin) headers.set("Cross-Origin-Resource-Policy", "cross-origin");
  // RFC 9110 §6.6.1: an origin server with a clock sends Date. Cloudflare's edge adds one, workerd
  // (wrangler dev, Miniflare) does not; the player counts its timer by it (docs/player.md).
  if (!headers.has("date")) headers.set("Date", new Date().toUTCString());
}

/**
 * A page from Workers static assets ([assets] in wrangler.toml, binding ASSETS) under its
 * Content-Security-Policy, as a new response (the asset's headers are immutable) that this
 * worker's middleware adds its headers to. A path with no file is the API's own 404.
 */
function staticAssets(policy: string): Handler<AppEnv> {
  return async (c) => {
    if (!c.env.ASSETS) throw new Error("no ASSETS binding: the pages need [assets] in wrangler.toml");
    const asset = await c.env.ASSETS.fetch(c.req.raw);
    if (asset.status === 404) return c.notFound();
    const headers = new Headers(asset.headers);
    headers.set("Content-Security-Policy", policy);
    // c.body, not new Response(asset.body, asset): it also keeps the headers middleware set
    // before this handler ran (X-Request-Id).
    const init = { status: asset.status as ContentfulStatusCode, statusText: asset.statusText, headers };
    return asset.body === null ? c.body(null, init) : c.body(asset.body, init);
  };
}

/** GET /docs and /docs/*: the API reference (Swagger UI) under the docs' policy. */
export function docsAssets(): Handler<AppEnv> {
  return staticAssets(DOCS_CONTENT_SECURITY_POLICY);
}

/** GET /reports/ and its files (public/reports/): the report page, under the reports' policy. */
export function reportsAssets(): Handler<AppEnv> {
  return staticAssets(REPORTS_CONTENT_SECURITY_POLICY);
}

/** GET /lti/auto-submit.js and /lti/tool.css (public/lti/): the LTI tool pages' script and stylesheet. */
export function ltiToolAssets(): Handler<AppEnv> {
  return staticAssets(REPORTS_CONTENT_SECURITY_POLICY);
}

/** GET /play/ and its files (public/play/): the player a learner takes a quiz in, under its policy. */
export function playerAssets(): Handler<AppEnv> {
  return staticAssets(PLAYER_CONTENT_SECURITY_POLICY);
}

/** GET /shared/*: the modules the report and the player both import (public/shared/), under a policy allowing nothing. */
export function sharedAssets(): Handler<AppEnv> {
  return staticAssets(SHARED_CONTENT_SECURITY_POLICY);
}

/**
 * GET /: a browser (Accept preferring text/html) gets the landing page (public/index.html) under
 * the reports' policy; anyone else falls through to the JSON route. Both answers vary on Accept,
 * so a cache never hands one to the other.
 */
export function landingPage(): MiddlewareHandler<AppEnv> {
  const page = staticAssets(REPORTS_CONTENT_SECURITY_POLICY);
  return async (c, next) => {
    if ((c.req.method === "GET" || c.req.method === "HEAD") && prefersHtml(c.req.header("accept"))) {
      const res = await page(c, next);
      res.headers.append("Vary", "Accept");
      return res;
    }
    await next();
    c.res.headers.append("Vary", "Accept");
  };
}

/**
 * Whether an Accept header ranks text/html above application/json (RFC 9110 §12.5.1: the most
 * specific range that matches decides each type's weight). Browsers list text/html first and the
 * any-type range at q=0.8; curl's any-type range alone, or no header, weighs both the same, and
 * then JSON wins.
 */
function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = accept.split(",").map((part) => {
    const [range = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    return { range, weight: Number.isFinite(weight) ? weight : 0 };
  });
  const weight = (type: string) => {
    const [major] = type.split("/");
    const match =
      ranges.find((r) => r.range === type) ??
      ranges.find((r) => r.range === `${major}/*`) ??
      ranges.find((r) => r.range === "*/*");
    return match?.weight ?? 0;
  };
  const html = weight("text/html");
  return html > 0 && html > weight("application/json");
}

/** The headers a browser may read from an answer, whoever it let call: the same for every CORS answer. */
const EXPOSED_HEADERS = [
  "Location",
  "Link",
  "X-Request-Id",
  "RateLimit",
  "RateLimit-Policy",
  "Retry-After",
  "X-D1-Bookmark",
  "Deprecation",
  "Sunset",
  "Content-Disposition",
  "Export-Skipped",
];

/** Hono's CORS middleware for an allow-list, made once per list (the list is the deployment's). */
const corsByOrigins = new WeakMap<string[], MiddlewareHandler>();

/**
 * CORS is off unless CORS_ALLOW_ORIGINS names origins (comma-separated): then the CORS step for
 * that list, else nothing. No credentials mode: credentials travel in headers, never in cookies.
 */
export function corsFromAllowList(env: Env): MiddlewareHandler | undefined {
  const origins = config(env).corsAllowOrigins;
  if (origins.length === 0) return undefined;
  let step = corsByOrigins.get(origins);
  if (!step) {
    step = cors({
      origin: origins,
      allowHeaders: ["Authorization", "X-API-Key", "Content-Type", "Idempotency-Key", "X-Request-Id", "X-D1-Bookmark"],
      exposeHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    });
    corsByOrigins.set(origins, step);
  }
  return step;
}

/** What a learner's browser may send (§17). */
const LEARNER_REQUEST_HEADERS = "Authorization, Content-Type, Idempotency-Key, X-D1-Bookmark";
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * The preflight of a learner route (§17), from any origin: a preflight carries no token, so
 * which session's origins apply cannot be known here. It is answered with the headers a learner
 * may send and nothing else; what protects the session is the actual answer, which names an
 * origin only when the token's session lists it (echoLearnerOrigin) — a browser reads nothing
 * from an answer without that header. Undefined for any other request, and for an origin the
 * deployment's CORS_ALLOW_ORIGINS lists (its own CORS step answers, with its wider headers).
 */
export function learnerPreflight(c: Context<AppEnv>, isLearnerPath: (path: string) => boolean): Response | undefined {
  const origin = c.req.header("origin");
  if (c.req.method !== "OPTIONS" || !origin || !c.req.header("access-control-request-method")) return undefined;
  if (!isLearnerPath(c.req.path) || config(c.env).corsAllowOrigins.includes(origin)) return undefined;
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": "GET, POST, PUT",
      "Access-Control-Allow-Headers": LEARNER_REQUEST_HEADERS,
      "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
      Vary: "Origin",
    },
  });
}

/**
 * A learner token's answer to a browser at one of its session's origins names that origin
 * (`Access-Control-Allow-Origin`, `Vary: Origin`); from any other origin, no CORS header. Set
 * before the route runs, so that a refusal carries it too (the player reads its problem).
 */
export function echoLearnerOrigin(c: Context<AppEnv>, origins: readonly string[]): void {
  const origin = c.req.header("origin");
  c.header("Vary", "Origin", { append: true });
  if (!origin || !origins.includes(origin)) return;
  c.header("Access-Control-Allow-Origin", origin);
  c.header("Access-Control-Expose-Headers", EXPOSED_HEADERS.join(", "));
}
