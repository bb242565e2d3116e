// What every browser test shares (test/e2e/*.test.ts that drive a page): Debian's Chromium driven
// by playwright-core, launched with the background services that would reach the network turned
// off; the built bundle served with its static assets by Miniflare (scripts/local-worker.ts) over a
// throw-away D1 and KV, with an admin key written straight into that D1; and the watch over a page:
// every request recorded and any to another origin aborted, console errors, uncaught exceptions,
// CSP violations and pages served without their Content-Security-Policy collected as problems.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import axe from "axe-core";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { expect } from "vitest";
import { buildWorker } from "../../scripts/build";
import { type LocalWorker, startLocalWorker } from "../../scripts/local-worker";
import { CHROMIUM_ARGS } from "../../scripts/screenshot-browser";
import { newApiKey } from "../../src/auth/api-keys";
import { SHARED_CONTENT_SECURITY_POLICY } from "../../src/lib/docs-csp";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export { CHROMIUM_ARGS };

/** Headless Chromium (CHROMIUM_PATH, else Debian's), or a clear error saying how to install it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export interface BuiltWorker {
  /** The throw-away directory holding the bundle and the local state (removed by stopBuiltWorker). */
  dir: string;
  worker: LocalWorker;
  /** A key with the admin scope, already in the worker's D1. */
  adminKey: string;
}

/**
 * The bundle `npm run deploy` uploads, built into a fresh directory and served by Miniflare, with an
 * admin key named `keyName` (Chromium is looked for first, so that a missing browser fails before the build).
 */
export async function startBuiltWorker(prefix: string, keyName: string): Promise<BuiltWorker> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const { outfile } = await buildWorker({ outdir: join(dir, "dist"), minify: true });
  const worker = await startLocalWorker({ scriptPath: outfile, persistRoot: join(dir, "state"), quiet: true });
  const { key, row } = await newApiKey({ name: keyName, scopes: ["admin"], expiresAt: null });
  await (await worker.mf.getD1Database("DB"))
    .prepare("INSERT INTO api_keys (id, name, key_hash, prefix, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(row.id, row.name, row.keyHash, row.prefix, JSON.stringify(row.scopes), row.createdAt)
    .run();
  return { dir, worker, adminKey: key };
}

export async function stopBuiltWorker(built: Partial<BuiltWorker> | undefined, browser?: Browser) {
  await browser?.close().catch(() => {});
  await built?.worker?.dispose().catch(() => {});
  if (built?.dir) rmSync(built.dir, { recursive: true, force: true });
}

interface RecordedRequest {
  url: string;
  method: string;
  authorization: string | undefined;
  referer: string | undefined;
}

/** What the watch over a context and its pages collects. */
export interface Watched {
  /** Console errors, uncaught exceptions, CSP violations, pages without their CSP. */
  problems: { text: string; url: string }[];
  /** Every request the browser made. */
  requests: RecordedRequest[];
  /** Requests to another origin (aborted). */
  offOrigin: string[];
}

/**
 * The network unplugged: only `origin` answers. Every request is recorded while it is held (its
 * headers are readable then, whatever happens to the page afterwards); `unreadable` stands for the
 * headers of a request whose headers can no longer be read. CSP violations are logged as console
 * errors, by an init script (which comes through the DevTools protocol, not governed by the page's
 * CSP) that also runs `initScript`.
 */
export async function watchContext(
  context: BrowserContext,
  origin: string,
  watched: Watched,
  { unreadable = {} as Record<string, string>, initScript = "" } = {},
) {
  await context.route("**/*", async (route) => {
    const request = route.request();
    const url = request.url();
    const headers = await request.allHeaders().catch(() => unreadable);
    watched.requests.push({ url, method: request.method(), authorization: headers.authorization, referer: headers.referer });
    if (new URL(url).origin === origin) return route.continue().catch(() => {});
    watched.offOrigin.push(url);
    return route.abort("blockedbyclient").catch(() => {});
  });
  await context.addInitScript({
    content: `document.addEventListener("securitypolicyviolation", (e) =>
      console.error("CSP violation: " + e.effectiveDirective + " blocked " + (e.blockedURI || "(inline)") + " at " + e.sourceFile + ":" + e.lineNumber));
      ${initScript}`,
  });
}

/**
 * Collects the page's console errors and uncaught exceptions, and every response of `origin` but
 * the API's (/v1/) that lacks its CSP: /shared/'s own, `policy` for the rest (named `name` in the problem).
 */
export function watchPage(
  page: Page,
  origin: string,
  watched: Watched,
  { policy, name }: { policy: string; name: string },
): Page {
  page.on("console", (m) => {
    if (m.type() === "error") watched.problems.push({ text: `console error: ${m.text()}`, url: m.location().url });
  });
  page.on("pageerror", (e) => watched.problems.push({ text: `uncaught: ${e.message}`, url: "" }));
  page.on("response", (r) => {
    const url = new URL(r.url());
    if (url.origin !== origin || url.pathname.startsWith("/v1/")) return;
    const expected = url.pathname.startsWith("/shared/") ? SHARED_CONTENT_SECURITY_POLICY : policy;
    if (r.headers()["content-security-policy"] !== expected)
      watched.problems.push({ text: `no ${name} CSP on ${r.status()} ${url.pathname}`, url: r.url() });
  });
  return page;
}

/**
 * No problem but the console's report of failed requests the test provoked (Chromium logs each
 * failed or non-2xx fetch as an error) whose URL matches one of `expectedFailures`, and nothing sent to another origin.
 */
export function expectNoProblems(watched: Watched, expectedFailures: RegExp[] = []) {
  const problems = watched.problems.filter(
    (p) => !(p.text.startsWith("console error: Failed to load resource") && expectedFailures.some((re) => re.test(p.url))),
  );
  expect(problems.map((p) => `${p.text} (${p.url})`)).toEqual([]);
  expect(watched.offOrigin).toEqual([]);
}

/** WCAG 2.0, 2.1 and 2.2, levels A and AA: the rules axe-core checks for them. */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** axe-core's violations on the page as it is now, as "rule: selector" lines (its engine added to the page as a script, once). */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate("typeof window.axe !== 'undefined'"))) await page.addScriptTag({ content: axe.source });
  const violations = (await page.evaluate(
    `axe.run(document, { runOnly: { type: "tag", values: ${JSON.stringify(WCAG_TAGS)} } }).then((r) => r.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(" ")) })))`,
  )) as { id: string; targets: string[] }[];
  return violations.flatMap((v) => v.targets.map((target) => `${v.id}: ${target}`));
}

export const noHorizontalScroll = (page: Page) =>
  page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth") as Promise<boolean>;
