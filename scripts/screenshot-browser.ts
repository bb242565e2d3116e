// What the docs' screenshot scripts share (scripts/docs-screenshot.ts, player-screenshot.ts,
// report-screenshot.ts): the bundle `npm run deploy` uploads, built into a throw-away folder and
// served with public/ by Miniflare (scripts/local-worker.ts) over a throw-away D1 and KV, headless
// Chromium (Debian's, or --chromium / CHROMIUM_PATH) on pages with the network unplugged, and the
// run's verdict: exit 1 on any problem the page showed or any attempt to reach another origin.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { newApiKey } from "../src/auth/api-keys";
import { SHARED_CONTENT_SECURITY_POLICY } from "../src/lib/docs-csp";
import { buildWorker } from "./build";
import { type LocalWorker, startLocalWorker } from "./local-worker";

/** Chromium with the background services that would reach the network turned off (the browser tests use it too). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
export const TIMEOUT_MS = 60_000;

export const log = (line: string) => process.stdout.write(`${line}\n`);

/** One screenshot run: its folder, what went wrong, and what to shut down at the end. */
export interface ScreenshotRun {
  dir: string;
  /** Each problem a page showed; any one fails the run. */
  problems: string[];
  /** Requests to another origin, aborted. */
  blocked: string[];
  worker?: LocalWorker;
  browser?: Browser;
}

/**
 * Runs `steps` in a fresh folder (named from `prefix`), then closes the browser, stops the worker
 * and removes the folder whatever happened; answers the exit code, having said what `label` showed.
 */
export async function screenshotRun(
  label: string,
  prefix: string,
  steps: (run: ScreenshotRun) => Promise<void>,
): Promise<number> {
  const run: ScreenshotRun = { dir: mkdtempSync(join(tmpdir(), prefix)), problems: [], blocked: [] };
  try {
    await steps(run);
  } catch (error) {
    run.problems.push(`failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await run.browser?.close().catch(() => {});
    await run.worker?.dispose().catch(() => {});
    rmSync(run.dir, { recursive: true, force: true });
  }
  for (const url of run.blocked) run.problems.push(`tried another origin: ${url}`);
  if (run.problems.length === 0) {
    log(`${label} OK: no CSP violation, no console error, no request to another origin`);
    return 0;
  }
  process.stderr.write(`${label} FAILED:\n${run.problems.map((p) => `  - ${p}`).join("\n")}\n`);
  return 1;
}

/** Builds the deploy bundle into the run's folder and serves it with public/; answers its origin. */
export async function serveBundle(run: ScreenshotRun): Promise<string> {
  const { outfile } = await buildWorker({ outdir: join(run.dir, "dist"), minify: true });
  run.worker = await startLocalWorker({ scriptPath: outfile, persistRoot: join(run.dir, "state"), quiet: true });
  return run.worker.url;
}

/** A key with the admin scope, written straight into the served bundle's D1. */
export async function adminKey(run: ScreenshotRun, name: string): Promise<string> {
  if (!run.worker) throw new Error("serveBundle first");
  const { key, row } = await newApiKey({ name, scopes: ["admin"], expiresAt: null });
  await (await run.worker.mf.getD1Database("DB"))
    .prepare("INSERT INTO api_keys (id, name, key_hash, prefix, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(row.id, row.name, row.keyHash, row.prefix, JSON.stringify(row.scopes), row.createdAt)
    .run();
  return key;
}

/** The executable: --chromium, else CHROMIUM_PATH, else Debian's. */
export const chromiumPath = (option?: string) => option ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchChromium(run: ScreenshotRun, executablePath: string): Promise<Browser> {
  run.browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  log(`Chromium ${run.browser.version()} (${executablePath})`);
  return run.browser;
}

/**
 * A page on `origin` with the network unplugged: only the local server answers, any other request
 * is aborted and recorded. CSP violations are logged as console errors too, by an init script
 * (injected by the DevTools protocol, not subject to the page's CSP).
 */
export async function unpluggedPage(
  run: ScreenshotRun,
  origin: string,
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  if (!run.browser) throw new Error("launchChromium first");
  const context = await run.browser.newContext({ viewport, deviceScaleFactor: 1, serviceWorkers: "block" });
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    run.blocked.push(url);
    return route.abort("blockedbyclient");
  });
  await context.addInitScript({
    content: `document.addEventListener("securitypolicyviolation", (e) =>
      console.error("CSP violation: " + e.effectiveDirective + " blocked " + (e.blockedURI || "(inline)") + " at " + e.sourceFile + ":" + e.lineNumber));`,
  });
  return { context, page: await context.newPage() };
}

/**
 * Watches a page of an app served from public/ for what fails the run: console errors, uncaught
 * exceptions, failed or 4xx/5xx requests, and any of `origin`'s pages or assets (not /v1/) served
 * without its CSP (/shared/'s own, `policy` for the rest; `name` names it in the problem).
 */
export function watchAppPage(page: Page, origin: string, problems: string[], { policy, name }: { policy: string; name: string }) {
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`uncaught: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on("response", (r) => {
    const url = new URL(r.url());
    if (r.status() >= 400) problems.push(`${r.status()} for ${r.url()}`);
    else if (url.origin === origin && !url.pathname.startsWith("/v1/"))
      if (
        r.headers()["content-security-policy"] !== (url.pathname.startsWith("/shared/") ? SHARED_CONTENT_SECURITY_POLICY : policy)
      )
        problems.push(`no ${name} CSP on ${r.url()}`);
  });
}
