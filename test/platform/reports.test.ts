// GET / and /reports/: the landing page and the report page come from this worker (Workers static
// assets, through the worker so its headers apply) under a Content-Security-Policy as strict as the
// docs', reference no other origin, and hold no inline script or style; their scripts never hand
// text to an HTML parser. GET / answers JSON to anything but a browser. (The pages' behaviour in a
// real browser: test/e2e/report-page.test.ts.)
import { describe, expect, it } from "vitest";
import packageJson from "../../package.json";
import { REPORTS_CONTENT_SECURITY_POLICY, SHARED_CONTENT_SECURITY_POLICY } from "../../src/lib/docs-csp";
import { BASE, call, callRaw, fetchWorker } from "../support/call";

const get = (path: string, init?: RequestInit) => fetchWorker(new Request(new URL(path, BASE), init));
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
const REPORT_SCRIPTS = [
  "/reports/app.js",
  "/reports/api.js",
  "/reports/charts.js",
  "/reports/format.js",
  "/reports/items.js",
  "/reports/options.js",
  "/reports/report.js",
  "/shared/content.js",
  "/shared/dom.js",
];

/** Every URL the markup names: src and href attributes. */
const referencedUrls = (html: string) =>
  [...html.matchAll(/\s(?:src|href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");

function expectPageHeaders(res: Response, path: string) {
  const policy = path.startsWith("/shared/") ? SHARED_CONTENT_SECURITY_POLICY : REPORTS_CONTENT_SECURITY_POLICY;
  expect(res.headers.get("content-security-policy"), path).toBe(policy);
  expect(res.headers.get("x-request-id"), path).toBeTruthy();
  expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
  expect(res.headers.get("x-frame-options"), path).toBe("DENY");
}

function expectNoInlineCode(html: string, path: string) {
  for (const [, attributes] of html.matchAll(/<script\b([^>]*)>/gi)) expect(attributes, path).toMatch(/\ssrc\s*=/i);
  expect(html, path).not.toMatch(/<style\b/i);
  expect(html, path).not.toMatch(/\sstyle\s*=/i);
  expect(html, path).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html, path).not.toMatch(/javascript:/i);
}

describe("GET /", () => {
  it("answers { name, version, docs, openapi } as JSON to an API client, public and cacheable, varying on Accept", async () => {
    for (const accept of [undefined, "*/*", "application/json", "application/json, text/html;q=0.5"]) {
      const res = await call("/", { auth: false, headers: accept ? { accept } : {} });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get("content-type"), accept).toBe("application/json; charset=utf-8");
      expect(res.json).toEqual({ name: packageJson.name, version: packageJson.version, docs: "/docs", openapi: "/openapi.json" });
      expect(res.headers.get("vary"), accept).toMatch(/\bAccept\b/);
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    }
  });

  it("answers the landing page to a browser, linking /docs, /reports/ and /openapi.json, under the pages' CSP", async () => {
    for (const accept of [BROWSER_ACCEPT, "text/html", "text/*, application/json;q=0.9"]) {
      const res = await get("/", { headers: { accept } });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get("content-type"), accept).toMatch(/^text\/html/);
      expect(res.headers.get("vary"), accept).toMatch(/\bAccept\b/);
      expectPageHeaders(res, "/");
      const html = await res.text();
      expectNoInlineCode(html, "/");
      const links = [...html.matchAll(/<a\b[^>]*\shref="([^"]+)"/gi)].map((m) => m[1]);
      expect(links).toEqual(["/docs", "/reports/", "/openapi.json"]);
    }
  });

  it("is documented: public, JSON and HTML", async () => {
    const doc = (await callRaw("/openapi.json", { auth: false })).json as {
      paths: Record<string, { get: { security: unknown; responses: Record<number, { content: Record<string, unknown> }> } }>;
    };
    const operation = doc.paths["/"]!.get;
    expect(operation.security).toEqual([]);
    expect(Object.keys(operation.responses[200]!.content).sort()).toEqual(["application/json", "text/html"]);
  });

  it("refuses other methods (405) and unknown query parameters (400) like every operation", async () => {
    const post = await callRaw("/", { method: "POST", auth: false });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toMatch(/GET/);
    const query = await callRaw("/?x=1", { auth: false });
    expect(query.status).toBe(400);
    const head = await get("/", { method: "HEAD", headers: { accept: BROWSER_ACCEPT } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});

describe("GET /reports/", () => {
  it("is the report page, through the worker, under the pages' CSP, with no inline script or style", async () => {
    const res = await get("/reports/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expectPageHeaders(res, "/reports/");
    const html = await res.text();
    expectNoInlineCode(html, "/reports/");
    expect(html).toContain('id="signin-form"');
  });

  it("/reports leads to /reports/; a missing file is the API's 404", async () => {
    const bare = await get("/reports", { redirect: "manual" });
    expect(bare.status).toBeGreaterThanOrEqual(300);
    expect(bare.status).toBeLessThan(400);
    expect(new URL(bare.headers.get("location") ?? "", BASE).pathname).toBe("/reports/");
    const missing = await get("/reports/nope.js");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
    // The page's files are reachable through /reports/ only: index.html is not a second address of it.
    expect((await get("/index.html")).status).toBe(404);
  });

  it("serves every file the pages reference, from this origin, with the CSP", async () => {
    const pages = await Promise.all(
      ["/", "/reports/"].map(async (p) => (await get(p, { headers: { accept: "text/html" } })).text()),
    );
    const urls = new Set([...pages.flatMap(referencedUrls), ...REPORT_SCRIPTS]);
    for (const url of urls) {
      expect(url, url).not.toMatch(/^\/\//);
      const absolute = new URL(url, `${BASE}/reports/`);
      expect(absolute.origin, url).toBe(BASE);
      if (["/docs", "/openapi.json", "/", "/reports/"].includes(absolute.pathname)) continue;
      const res = await get(absolute.pathname);
      expect(res.status, absolute.pathname).toBe(200);
      expectPageHeaders(res, absolute.pathname);
      expect((await res.arrayBuffer()).byteLength, absolute.pathname).toBeGreaterThan(0);
    }
  });

  it("its scripts call this origin only and never parse text as HTML", async () => {
    for (const path of REPORT_SCRIPTS) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/^(text|application)\/javascript/);
      const source = await res.text();
      expect(source, path).not.toMatch(/\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval|new Function)\b/);
      expect(source, path).not.toMatch(/https?:\/\/(?!www\.w3\.org\/(2000\/svg|1998\/Math\/MathML)")/);
      expect(source, path).not.toMatch(/localStorage|document\.cookie/);
    }
  });

  it("the pages' CSP allows only 'self', no inline code, no eval, no framing, and Trusted Types with no policy", () => {
    const csp = new Map(
      REPORTS_CONTENT_SECURITY_POLICY.split(";").map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values];
      }),
    );
    expect(csp.get("default-src")).toEqual(["'none'"]);
    for (const directive of ["script-src", "style-src", "img-src", "connect-src"])
      expect(csp.get(directive), directive).toEqual(["'self'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    expect(csp.get("form-action")).toEqual(["'none'"]);
    expect(csp.get("require-trusted-types-for")).toEqual(["'script'"]);
    expect(csp.get("trusted-types")).toEqual(["'none'"]);
    expect(REPORTS_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|https?:|data:|\*/);
  });
});
