import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { BASE, callRaw, defaultKey } from "../support/call";

// Every header of an answer, by name: the exact set, each value as given (a RegExp where the
// value varies: the request id, the limiter's counts, the bookmark). Headers are the contract's
// too, so an answer that gains, loses or changes one fails here.
type Expected = Record<string, string | RegExp>;

const SECURITY = {
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "referrer-policy": "no-referrer",
  "strict-transport-security": "max-age=15552000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  // Not a security header, but on every answer too: the server's clock (RFC 9110 §6.6.1), which the player's timer goes by.
  date: /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const JSON_UTF8 = "application/json; charset=utf-8";
const limited = (policy: string) => ({
  ratelimit: new RegExp(`^"${policy}";r=\\d+;t=\\d+$`),
  "ratelimit-policy": new RegExp(`^"${policy}";q=\\d+;w=60$`),
});

function expectHeaders(headers: Headers, expected: Expected) {
  const actual = Object.fromEntries(headers);
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [name, value] of Object.entries(expected))
    if (value instanceof RegExp) expect(actual[name], name).toMatch(value);
    else expect(actual[name], name).toBe(value);
}

describe("the headers of every answer", () => {
  it("an authenticated /v1 read: security, no-store, the limiter's, the bookmark, the request id", async () => {
    const res = await callRaw("/v1/quizzes?limit=1");
    expect(res.status).toBe(200);
    expectHeaders(res.headers, {
      ...SECURITY,
      ...limited("default"),
      "cache-control": "no-store",
      "content-type": JSON_UTF8,
      "x-d1-bookmark": /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/,
      "x-request-id": UUID,
    });
  });

  it("the caller's sane request id is echoed", async () => {
    const res = await callRaw("/v1/quizzes?limit=1", { headers: { "x-request-id": "trace-42=" } });
    expect(res.headers.get("x-request-id")).toBe("trace-42=");
  });

  it("refusals of the /v1 guard: 401 without a credential, 415 for another media type", async () => {
    const anonymous = await callRaw("/v1/quizzes", { auth: false });
    expect(anonymous.status).toBe(401);
    expectHeaders(anonymous.headers, {
      ...SECURITY,
      ...limited("anonymous"),
      "cache-control": "no-store",
      "content-type": "application/problem+json",
      "www-authenticate": 'Bearer realm="quiz"',
      "x-request-id": UUID,
    });
    const text = await callRaw("/v1/quizzes", { method: "POST", raw: "x", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
    expectHeaders(text.headers, {
      ...SECURITY,
      ...limited("default"),
      "cache-control": "no-store",
      "content-type": "application/problem+json",
      "x-request-id": UUID,
    });
  });

  it("public documents may be cached; one that names the request's origin may not; a handler's own Cache-Control stays", async () => {
    const plain = { ...SECURITY, "content-type": JSON_UTF8, "x-request-id": UUID };
    expectHeaders((await callRaw("/health")).headers, { ...plain, "cache-control": "public, max-age=300" });
    expectHeaders((await callRaw("/")).headers, { ...plain, "cache-control": "public, max-age=300", vary: "Accept" });
    expectHeaders((await callRaw("/openapi.json")).headers, { ...plain, "cache-control": "no-store" });
    expectHeaders((await callRaw("/.well-known/jwks.json")).headers, { ...plain, "cache-control": "public, max-age=60" });
    expectHeaders((await callRaw("/problems/not_found")).headers, {
      ...plain,
      "cache-control": "no-store",
      "content-type": "text/markdown; charset=utf-8",
    });
  });

  it("an unknown path and an OAuth error", async () => {
    expectHeaders((await callRaw("/nope")).headers, {
      ...SECURITY,
      "cache-control": "no-store",
      "content-type": "application/problem+json",
      "x-request-id": UUID,
    });
    const token = await callRaw("/oauth/token", {
      method: "POST",
      raw: "grant_type=client_credentials",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      auth: false,
    });
    expect(token.status).toBe(401);
    expectHeaders(token.headers, {
      ...SECURITY,
      ...limited("token"),
      "cache-control": "no-store",
      "content-type": JSON_UTF8,
      pragma: "no-cache",
      "www-authenticate": 'Basic realm="quiz"',
      "x-request-id": UUID,
    });
  });
});

describe("CORS, when CORS_ALLOW_ORIGINS names origins", () => {
  const corsEnv = { ...env, CORS_ALLOW_ORIGINS: "https://app.example, https://admin.example" };
  const send = async (init: RequestInit & { path: string }) =>
    worker.fetch(new Request(`${BASE}${init.path}`, init), corsEnv, createExecutionContext());

  it("a preflight from a listed origin → 204 with the allowed methods and headers, and the headers every answer carries", async () => {
    const res = await send({
      path: "/v1/quizzes",
      method: "OPTIONS",
      headers: { origin: "https://admin.example", "access-control-request-method": "POST" },
    });
    expect(res.status).toBe(204);
    expectHeaders(res.headers, {
      ...SECURITY,
      "access-control-allow-headers": "Authorization,X-API-Key,Content-Type,Idempotency-Key,X-Request-Id,X-D1-Bookmark",
      "access-control-allow-methods": "GET,HEAD,PUT,POST,DELETE,PATCH,QUERY",
      "access-control-allow-origin": "https://admin.example",
      "access-control-expose-headers":
        "Location,Link,X-Request-Id,RateLimit,RateLimit-Policy,Retry-After,X-D1-Bookmark,Deprecation,Sunset,Content-Disposition,Export-Skipped",
      "access-control-max-age": "600",
      "cache-control": "no-store",
      vary: "Origin, Access-Control-Request-Headers",
      "x-request-id": UUID,
    });
  });

  it("a read from a listed origin names it; one from another origin gets no allow-origin", async () => {
    const authorization = `Bearer ${await defaultKey()}`;
    const listed = await send({ path: "/v1/quizzes?limit=1", headers: { origin: "https://app.example", authorization } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(listed.headers.get("vary")).toBe("Origin");
    expect(listed.headers.get("x-frame-options")).toBe("DENY");
    const other = await send({ path: "/v1/quizzes?limit=1", headers: { origin: "https://evil.example", authorization } });
    expect(other.status).toBe(200);
    expect(other.headers.has("access-control-allow-origin")).toBe(false);
    expect(other.headers.get("access-control-expose-headers")).toMatch(/^Location,/);
  });
});
