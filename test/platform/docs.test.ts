// /docs: the page and every file it loads come from this worker (Workers static assets, through
// the worker so that its headers apply) under a strict Content-Security-Policy, and reference no
// other origin. And no host poisoning: documents that name the request's origin are not cacheable
// while ISSUER is empty.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import packageJson from "../../package.json";
import { app } from "../../src/app";
import { DOCS_CONTENT_SECURITY_POLICY } from "../../src/lib/docs-csp";
import { BASE, expectProblem, fetchWorker } from "../support/call";

const get = (path: string, init?: RequestInit) => fetchWorker(new Request(new URL(path, BASE), init));

/** The fetch handler with an env override (ISSUER), as deployed with the var set. */
async function fetchWith(vars: Partial<Env>, url: string) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(url), { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** Every URL the page's markup names: src and href attributes (the page's own files). */
function referencedUrls(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

/** The directives of a CSP header, by name. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

function expectDocsHeaders(res: Response, path: string) {
  expect(res.headers.get("content-security-policy"), path).toBe(DOCS_CONTENT_SECURITY_POLICY);
  expect(res.headers.get("x-request-id"), path).toBeTruthy();
  expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
}

describe("GET /docs", () => {
  it("is the HTML page, served through the worker with the docs CSP", async () => {
    const res = await get("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expectDocsHeaders(res, "/docs");
    const html = await res.text();
    expect(html).toContain('id="swagger-ui"');
  });

  it("has no inline script, no inline style and no event-handler attribute", async () => {
    const html = await (await get("/docs")).text();
    for (const [, attributes] of html.matchAll(/<script\b([^>]*)>/gi))
      expect(attributes, "every script is external").toMatch(/\ssrc\s*=/i);
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\sstyle\s*=/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
  });

  it("references only its own origin: relative or same-origin URLs", async () => {
    const html = await (await get("/docs")).text();
    const urls = referencedUrls(html);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      expect(url, url).not.toMatch(/^\/\//); // protocol-relative: another host
      expect(new URL(url, `${BASE}/docs`).origin, url).toBe(BASE);
    }
  });

  it("serves every script and style it references, with the CSP", async () => {
    const html = await (await get("/docs")).text();
    const scripts = [...html.matchAll(/<script\b[^>]*\ssrc="([^"]+)"/gi)].map((m) => m[1]!);
    const styles = [...html.matchAll(/<link\b[^>]*\srel="stylesheet"[^>]*\shref="([^"]+)"/gi)].map((m) => m[1]!);
    const icons = [...html.matchAll(/<link\b[^>]*\srel="icon"[^>]*\shref="([^"]+)"/gi)].map((m) => m[1]!);
    expect(scripts).toContain("/docs/vendor/swagger-ui-bundle.js");
    expect(scripts).toContain("/docs/init.js");
    expect(styles).toContain("/docs/vendor/swagger-ui.css");
    for (const [list, type] of [
      [scripts, /^(text|application)\/javascript/],
      [styles, /^text\/css/],
      [icons, /^image\/png/],
    ] as const) {
      for (const path of list) {
        const res = await get(path);
        expect(res.status, `${path} (missing? run npm run docs:assets)`).toBe(200);
        expect(res.headers.get("content-type"), path).toMatch(type);
        expectDocsHeaders(res, path);
        expect((await res.arrayBuffer()).byteLength, path).toBeGreaterThan(0);
      }
    }
  });

  it("the page's own script renders /openapi.json and keeps Swagger UI away from third parties", async () => {
    const init = await (await get("/docs/init.js")).text();
    expect(init).toContain('url: "/openapi.json"');
    expect(init).toMatch(/validatorUrl:\s*null/);
    expect(init).not.toMatch(/https?:\/\//);
  });

  it("serves the renderer of the exactly pinned swagger-ui-dist", async () => {
    const pinned = packageJson.devDependencies["swagger-ui-dist"];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const res = await get("/docs/vendor/VERSION");
    expect(res.status, "run npm run docs:assets").toBe(200);
    expect((await res.text()).trim()).toBe(`swagger-ui-dist ${pinned}`);
  });

  it("the CSP allows only 'self' plus data: images; no inline script or style, no eval, no framing", () => {
    const csp = directives(DOCS_CONTENT_SECURITY_POLICY);
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("script-src")).toEqual(["'self'"]);
    expect(csp.get("connect-src")).toEqual(["'self'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    expect(csp.get("object-src") ?? csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("style-src")).toEqual(["'self'"]);
    expect(csp.get("img-src")).toEqual(["'self'", "data:"]);
    for (const [name, values] of csp)
      for (const value of values) expect(["'self'", "'none'", "data:"], `${name} ${value}`).toContain(value);
    expect(DOCS_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|https?:|\*/);
  });

  it("/docs/ and /docs.html lead to /docs; HEAD works; a missing file is the API's 404", async () => {
    const slash = await get("/docs/", { redirect: "manual" });
    expect(slash.status).toBeGreaterThanOrEqual(300);
    expect(slash.status).toBeLessThan(400);
    expect(new URL(slash.headers.get("location") ?? "", BASE).pathname).toBe("/docs");
    expectDocsHeaders(slash, "/docs/");

    const head = await get("/docs", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");

    const missing = await get("/docs/vendor/nope.js");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
    expect(missing.headers.get("cache-control")).toBe("no-store");

    // The assets are reachable through the docs routes only (run_worker_first = true).
    const raw = await get("/docs.html");
    expect(raw.status).toBe(404);
  });

  it("answers 405 to other methods", async () => {
    const res = await get("/docs", { method: "POST" });
    const body = await res.text();
    expect(res.status, body).toBe(405);
    expect(res.headers.get("allow")).toMatch(/GET/);
  });

  it("a conditional request is answered 304 with the headers", async () => {
    const first = await get("/docs/vendor/swagger-ui.css");
    await first.arrayBuffer();
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await get("/docs/vendor/swagger-ui.css", { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    expectDocsHeaders(again, "304");
  });
});

describe("no host poisoning: documents naming the request's origin", () => {
  const DOCUMENTS = ["/openapi.json", "/.well-known/oauth-authorization-server"];

  it.each(DOCUMENTS)("%s is no-store while ISSUER is empty", async (path) => {
    expect(env.ISSUER).toBe("");
    const res = await fetchWith({}, `https://evil.example${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    // What makes caching it dangerous: the answer names the Host the request claimed.
    expect(await res.text()).toContain("https://evil.example");
  });

  it.each(DOCUMENTS)("%s stays publicly cacheable with ISSUER set, and names ISSUER only", async (path) => {
    const res = await fetchWith({ ISSUER: "https://quiz.example.com" }, `https://evil.example${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const text = await res.text();
    expect(text).toContain("https://quiz.example.com");
    expect(text).not.toContain("evil.example");
  });

  it("/openapi.json names ISSUER as its server when set", async () => {
    const doc = await (await fetchWith({ ISSUER: "https://quiz.example.com/" }, "https://evil.example/openapi.json")).json<any>();
    expect(doc.servers.map((s: { url: string }) => s.url)).toEqual(["https://quiz.example.com"]);
  });

  it("an error at a public document's path is never cacheable", async () => {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request("https://quiz.example.com/openapi.json", { method: "DELETE" }),
      { ...env, ISSUER: "https://quiz.example.com" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const text = await res.text();
    expectProblem({ status: res.status, headers: res.headers, json: JSON.parse(text), text }, 405, "method_not_allowed");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("/health stays publicly cacheable (it names no origin)", async () => {
    const health = await get("/health");
    expect(health.headers.get("cache-control")).toBe("public, max-age=300");
  });
});
