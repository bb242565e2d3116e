// GET /play/: the player comes from this worker (Workers static assets, through the worker so its
// headers apply) under its Content-Security-Policy, references no other origin, holds no inline
// script or style, and its scripts never hand text to an HTML parser nor keep the token anywhere
// but this tab's sessionStorage. (The player's behaviour in a real browser: test/e2e/player.test.ts.)
import { describe, expect, it } from "vitest";
import { PLAYER_CONTENT_SECURITY_POLICY, SHARED_CONTENT_SECURITY_POLICY } from "../../src/lib/docs-csp";
import { BASE, fetchWorker } from "../support/call";

const get = (path: string, init?: RequestInit) => fetchWorker(new Request(new URL(path, BASE), init));
const PLAYER_SCRIPTS = [
  "/play/app.js",
  "/play/answers.js",
  "/play/api.js",
  "/play/questions.js",
  "/play/result.js",
  "/play/screens.js",
  "/play/strings.js",
  "/play/tab-store.js",
  "/play/text.js",
  "/shared/content.js",
  "/shared/dom.js",
];

const referencedUrls = (html: string) =>
  [...html.matchAll(/\s(?:src|href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");

/** A script without its comments (which may well name the token): what it does, not what it says. */
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

function expectPageHeaders(res: Response, path: string) {
  const policy = path.startsWith("/shared/") ? SHARED_CONTENT_SECURITY_POLICY : PLAYER_CONTENT_SECURITY_POLICY;
  expect(res.headers.get("content-security-policy"), path).toBe(policy);
  expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
  expect(res.headers.get("x-frame-options"), path).toBe("DENY");
  expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
}

describe("GET /play/", () => {
  it("is the player, through the worker, under its CSP, with lang set, no-referrer, and no inline script or style", async () => {
    const res = await get("/play/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expectPageHeaders(res, "/play/");
    const html = await res.text();
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
    for (const [, attributes] of html.matchAll(/<script\b([^>]*)>/gi)) expect(attributes).toMatch(/\ssrc\s*=/i);
    expect(html).not.toMatch(/<style\b|\sstyle\s*=|\son[a-z]+\s*=|javascript:/i);
  });

  it("every answer carries Date, the server's clock the player's timer goes by: the page, the API's answers and its errors", async () => {
    for (const [path, status] of [
      ["/play/", 200],
      ["/health", 200],
      ["/v1/quizzes", 401],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      const date = Date.parse(res.headers.get("date") ?? "");
      expect(Math.abs(date - Date.now()), `${path}: Date ${res.headers.get("date")}`).toBeLessThan(5_000);
    }
  });

  it("/play leads to /play/; a missing file is the API's 404", async () => {
    const bare = await get("/play", { redirect: "manual" });
    expect(bare.status).toBeGreaterThanOrEqual(300);
    expect(bare.status).toBeLessThan(400);
    expect(new URL(bare.headers.get("location") ?? "", BASE).pathname).toBe("/play/");
    const missing = await get("/play/nope.js");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
  });

  it("serves every file the page and its scripts reference, from this origin, with the CSP", async () => {
    const html = await (await get("/play/")).text();
    const imports: string[] = [];
    for (const path of PLAYER_SCRIPTS) {
      const source = await (await get(path)).text();
      imports.push(...[...source.matchAll(/from "\.\/([\w-]+\.js)"/g)].map((m) => `/play/${m[1]}`));
    }
    // Every module a script imports is one of the scripts listed here (so the checks below see them all).
    expect(imports.filter((path) => !PLAYER_SCRIPTS.includes(path))).toEqual([]);
    for (const url of new Set([...referencedUrls(html), ...PLAYER_SCRIPTS])) {
      expect(url, url).not.toMatch(/^\/\//);
      const absolute = new URL(url, `${BASE}/play/`);
      expect(absolute.origin, url).toBe(BASE);
      const res = await get(absolute.pathname);
      expect(res.status, absolute.pathname).toBe(200);
      expectPageHeaders(res, absolute.pathname);
      expect((await res.arrayBuffer()).byteLength, absolute.pathname).toBeGreaterThan(0);
    }
  });

  it("its scripts call this origin only, never parse text as HTML, and only answers.js touches localStorage (never with the token)", async () => {
    for (const path of PLAYER_SCRIPTS) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/^(text|application)\/javascript/);
      const source = await res.text();
      expect(source, path).not.toMatch(/\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval|new Function)\b/);
      // Namespace names are no addresses it calls: MathML's (the formatted-text builder) and SVG's (the shared element builders).
      expect(source, path).not.toMatch(/https?:\/\/(?!www\.w3\.org\/(2000\/svg|1998\/Math\/MathML)")/);
      expect(source, path).not.toMatch(/document\.cookie/);
      const code = withoutComments(source);
      if (path === "/play/answers.js") expect(code).not.toMatch(/token|sessionStorage|Authorization/i);
      else expect(code, path).not.toMatch(/localStorage/);
    }
  });

  it("its CSP allows only 'self', no inline code, no eval, no framing, and Trusted Types with no policy", () => {
    const csp = new Map(
      PLAYER_CONTENT_SECURITY_POLICY.split(";").map((d) => {
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
    expect(PLAYER_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|https?:|data:|\*/);
  });
});
