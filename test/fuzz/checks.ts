import type { Operation, Plan } from "./operations";
import { validate } from "./schema-validate";
import type { Materialized } from "./state";

/**
 * What every answer must be, whatever was asked (docs/api.md): never a 5xx; only the
 * statuses the contract allows; every error outside the OAuth endpoints an RFC 9457 problem whose
 * `status` is the HTTP status; the OAuth endpoints' errors in RFC 6749 §5.2 form; 2xx bodies JSON
 * (with the charset) and shaped as the document says; a sane X-Request-Id on everything;
 * rate-limit headers on /v1. An unknown path under /oauth/ is no OAuth endpoint: a 404 problem.
 */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export interface Findings {
  failures: string[];
  /** The answer's status is not among the operation's documented responses. */
  undocumented?: string;
}

const ALLOWED = new Set([200, 201, 202, 204, 400, 401, 403, 404, 405, 409, 413, 415, 429]);
const OAUTH_ALLOWED = new Set([200, 400, 401, 405, 413, 429]);
const OAUTH_ERRORS = new Set([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unsupported_grant_type",
  "invalid_scope",
  "temporarily_unavailable",
]);
const OAUTH_ENDPOINTS = new Set(["/oauth/token", "/oauth/revoke", "/oauth/introspect"]);
const SANE_REQUEST_ID = /^[A-Za-z0-9_=-]{1,255}$/;
/** What must never reach a client: SQL, driver errors, stack frames. */
const LEAK =
  /SQLITE|D1_ERROR|Failed query|\bselect\b.+\bfrom\b|\binsert into\b|\s+at\s+\S+\s+\(.*:\d+:\d+\)|TypeError|ReferenceError|RangeError|SyntaxError: /i;

export function checkAnswer(doc: any, op: Operation, plan: Plan, req: Materialized, res: Answer): Findings {
  const failures: string[] = [];
  const fail = (m: string) => failures.push(m);
  const url = new URL(req.url);
  // The OAuth endpoints themselves; an unknown path under /oauth/ is no OAuth endpoint (a 404 problem).
  const oauth = OAUTH_ENDPOINTS.has(url.pathname);
  const v1 = url.pathname.startsWith("/v1/");
  const head = req.method === "HEAD";
  const contentType = res.headers.get("content-type") ?? "";
  let json: any;
  let parsed = false;
  if (res.text) {
    try {
      json = JSON.parse(res.text);
      parsed = true;
    } catch {
      /* judged below */
    }
  }

  if (res.status >= 500) fail(`5xx: ${res.status}`);
  else if (!(oauth ? OAUTH_ALLOWED : ALLOWED).has(res.status)) fail(`status ${res.status} is not one the contract allows`);
  if (plan.expect && !plan.expect.includes(res.status)) fail(`expected ${plan.expect.join(" or ")}, got ${res.status}`);

  const requestId = res.headers.get("x-request-id");
  const sentId = req.headers.find(([h]) => h.toLowerCase() === "x-request-id")?.[1];
  if (!requestId || !SANE_REQUEST_ID.test(requestId)) fail(`X-Request-Id missing or not sane: ${JSON.stringify(requestId)}`);
  else if (sentId !== undefined && SANE_REQUEST_ID.test(sentId) && requestId !== sentId)
    fail(`X-Request-Id ${sentId} was not echoed (got ${requestId})`);
  if (v1 && (!res.headers.has("ratelimit") || !res.headers.has("ratelimit-policy")))
    fail("a /v1 answer without RateLimit and RateLimit-Policy");

  if (res.status >= 400) {
    if (oauth) {
      if (!/^application\/json\b/.test(contentType)) fail(`/oauth error with Content-Type ${contentType}`);
      if (!head) {
        if (!parsed || typeof json?.error !== "string" || !OAUTH_ERRORS.has(json.error))
          fail(`/oauth error body is not RFC 6749: ${res.text.slice(0, 200)}`);
        else if (typeof json.error_description !== "string") fail("/oauth error without error_description");
      }
      if (res.headers.get("cache-control") !== "no-store") fail("/oauth error without Cache-Control: no-store");
      if (res.status === 401 && !/^Basic /.test(res.headers.get("www-authenticate") ?? ""))
        fail("/oauth 401 without WWW-Authenticate: Basic");
    } else {
      if (contentType !== "application/problem+json")
        fail(`error with Content-Type ${JSON.stringify(contentType)}, not application/problem+json`);
      if (!head) {
        if (!parsed || json === null || typeof json !== "object") fail(`error body is not JSON: ${res.text.slice(0, 200)}`);
        else {
          for (const field of ["type", "title", "detail", "code", "request_id"])
            if (typeof json[field] !== "string") fail(`problem body lacks a string ${field}`);
          if (json.status !== res.status) fail(`problem status ${json.status} ≠ HTTP status ${res.status}`);
          if (typeof json.code === "string" && !/^[a-z][a-z0-9_]*$/.test(json.code))
            fail(`problem code ${json.code} is not snake_case`);
          // A replay (Idempotency-Key) is the stored answer as it was: its request_id names the request that made it.
          if (requestId && json.request_id !== requestId && res.headers.get("idempotent-replayed") !== "true")
            fail("problem request_id ≠ X-Request-Id");
          if (
            json.errors !== undefined &&
            !(
              Array.isArray(json.errors) &&
              json.errors.every((e: any) => typeof e?.path === "string" && typeof e?.message === "string")
            )
          )
            fail("problem errors is not a list of { path, message }");
          if (LEAK.test(String(json.detail)) || LEAK.test(JSON.stringify(json.errors ?? "")))
            fail(`problem leaks internals: ${String(json.detail).slice(0, 200)}`);
        }
      }
      if (res.status === 401 && !/^Bearer realm=/.test(res.headers.get("www-authenticate") ?? ""))
        fail("401 without WWW-Authenticate: Bearer realm=…");
      if (res.status === 403 && !/insufficient_scope/.test(res.headers.get("www-authenticate") ?? ""))
        fail("403 without insufficient_scope");
    }
    if (res.status === 405) {
      const allow = (res.headers.get("allow") ?? "").split(/,\s*/).filter(Boolean);
      if (allow.length === 0) fail("405 without Allow");
      else if (allow.includes(req.method)) fail(`405 for ${req.method}, which its Allow (${allow.join(", ")}) lists`);
    }
    if (res.status === 429 && !res.headers.get("retry-after")) fail("429 without Retry-After");
  }

  const sameOperation = plan.method === op.method && plan.path === op.path;
  const documented = op.responses[String(res.status)];
  if (res.status >= 200 && res.status < 300) {
    // A path variant (a trailing slash, a dot segment) may reach another operation: not judged here.
    if (!sameOperation) {
      /* nothing to compare with */
    } else if (!documented) fail(`${res.status} is not a documented answer of ${op.key}`);
    else if (!head) {
      if (documented.contentTypes.length === 0) {
        if (res.text !== "") fail(`${res.status} has a body, documented without one`);
      } else if (documented.contentTypes.includes("application/json")) {
        if (contentType.toLowerCase() !== "application/json; charset=utf-8")
          fail(`2xx Content-Type ${JSON.stringify(contentType)}, not application/json; charset=utf-8`);
        if (!parsed) fail(`2xx body is not JSON: ${res.text.slice(0, 200)}`);
        else {
          const mismatches = validate(doc, documented.schemas["application/json"], json);
          if (mismatches.length > 0) fail(`2xx body does not match the document: ${mismatches.join("; ")}`);
        }
      }
    }
    if (res.status === 201 && v1 && !res.headers.get("location")) fail("201 without Location");
    if (parsed && json && typeof json === "object" && "next_cursor" in json) {
      const link = res.headers.get("link");
      if (typeof json.next_cursor === "string" && !/rel="next"/.test(link ?? "")) fail('a next_cursor without Link: rel="next"');
      if (json.next_cursor === null && link) fail("a Link header on the last page");
    }
  }
  const undocumented = sameOperation && res.status >= 300 && !documented ? `${op.key} → ${res.status}` : undefined;
  return { failures, undocumented };
}
