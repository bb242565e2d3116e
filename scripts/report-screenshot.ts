// npm run docs:screenshot -- --report [--out-dir DIR] [--chromium PATH] (or npx tsx scripts/report-screenshot.ts):
// screenshots of the report page (/reports/) for the docs, at a desktop width and at 390 px
// (default docs/images/report-desktop.png and report-phone.png).
//
// Like the docs' screenshot: the deploy bundle and public/ served by Miniflare over a throw-away D1
// and KV (scripts/local-worker.ts), the demo quiz seeded through the API (scripts/report-demo.ts),
// headless Chromium (Debian's) with every request to another origin aborted. It exits 1 on any CSP
// violation, console error, uncaught exception, failed or 4xx/5xx request, or attempt to reach
// another origin. The browser tests of the page are test/e2e/report-page.test.ts.
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type Browser, chromium, type Page } from "playwright-core";
import { newApiKey } from "../src/auth/api-keys";
import { REPORTS_CONTENT_SECURITY_POLICY, SHARED_CONTENT_SECURITY_POLICY } from "../src/lib/docs-csp";
import { buildWorker } from "./build";
import { type LocalWorker, startLocalWorker } from "./local-worker";
import { apiClient, seedReportDemo } from "./report-demo";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const TIMEOUT_MS = 60_000;
// The first three screens' height: on a desktop down to the first questions' option bars and
// tables, on a phone (whose shot starts at the report's title, below the quiz list) down to the
// item table. The whole page is ~4 000 px tall on a desktop, ~6 500 px on a phone.
const SHOTS = [
  { file: "report-desktop.png", viewport: { width: 1280, height: 900 }, from: "page", screens: 3 },
  { file: "report-phone.png", viewport: { width: 390, height: 844 }, from: "report", screens: 3 },
] as const;

const log = (line: string) => process.stdout.write(`${line}\n`);

/** Watches a page for what fails the run. */
function watch(page: Page, origin: string, problems: string[]) {
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
        r.headers()["content-security-policy"] !==
        (url.pathname.startsWith("/shared/") ? SHARED_CONTENT_SECURITY_POLICY : REPORTS_CONTENT_SECURITY_POLICY)
      )
        problems.push(`no reports CSP on ${r.url()}`);
  });
}

export async function screenshotReport(options: { outDir?: string; chromium?: string } = {}): Promise<number> {
  const outDir = resolve(options.outDir ?? "docs/images");
  const executablePath = options.chromium ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const dir = mkdtempSync(join(tmpdir(), "report-screenshot-"));
  const problems: string[] = [];
  const blocked: string[] = [];
  let worker: LocalWorker | undefined;
  let browser: Browser | undefined;
  try {
    const { outfile } = await buildWorker({ outdir: join(dir, "dist"), minify: true });
    worker = await startLocalWorker({ scriptPath: outfile, persistRoot: join(dir, "state"), quiet: true });
    const origin = worker.url;
    const { key, row } = await newApiKey({ name: "report screenshot", scopes: ["admin"], expiresAt: null });
    await (await worker.mf.getD1Database("DB"))
      .prepare("INSERT INTO api_keys (id, name, key_hash, prefix, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .bind(row.id, row.name, row.keyHash, row.prefix, JSON.stringify(row.scopes), row.createdAt)
      .run();
    const { quizId } = await seedReportDemo(apiClient(origin, key));
    log(`serving the deploy bundle and public/ at ${origin}; demo quiz ${quizId}`);

    browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
    log(`Chromium ${browser.version()} (${executablePath})`);
    mkdirSync(outDir, { recursive: true });
    for (const shot of SHOTS) {
      const context = await browser.newContext({ viewport: shot.viewport, deviceScaleFactor: 1, serviceWorkers: "block" });
      await context.route("**/*", (route) => {
        const url = route.request().url();
        if (new URL(url).origin === origin) return route.continue();
        blocked.push(url);
        return route.abort("blockedbyclient");
      });
      await context.addInitScript({
        content: `document.addEventListener("securitypolicyviolation", (e) =>
          console.error("CSP violation: " + e.effectiveDirective + " blocked " + (e.blockedURI || "(inline)")));`,
      });
      const page = await context.newPage();
      watch(page, origin, problems);
      await page.goto(`${origin}/reports/`, { timeout: TIMEOUT_MS });
      await page.locator("#credential").fill(key);
      await page.locator("#credential").press("Enter");
      await page.locator("#quiz-list a").first().waitFor({ timeout: TIMEOUT_MS });
      // The demo quiz is on the list's second page.
      await page.locator("#more-quizzes").click();
      await page.locator(`#quiz-list a[data-quiz-id="${quizId}"]`).click();
      await page.locator("#report .question").first().waitFor({ timeout: TIMEOUT_MS });
      // The signed-in key's id is not worth showing; the focus ring would be noise.
      await page.evaluate("document.activeElement?.blur()");
      const path = join(outDir, shot.file);
      const top =
        shot.from === "page"
          ? 0
          : Number(await page.evaluate("Math.floor(document.getElementById('report').getBoundingClientRect().top + scrollY)"));
      await page.screenshot({
        path,
        type: "png",
        fullPage: true,
        clip: { x: 0, y: top, width: shot.viewport.width, height: shot.viewport.height * shot.screens },
      });
      log(`screenshot ${path} (${(statSync(path).size / 1024).toFixed(0)} KiB)`);
      await context.close();
    }
  } catch (error) {
    problems.push(`failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await browser?.close().catch(() => {});
    await worker?.dispose().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
  for (const url of blocked) problems.push(`tried another origin: ${url}`);
  if (problems.length === 0) {
    log("report page OK: no CSP violation, no console error, no request to another origin");
    return 0;
  }
  process.stderr.write(`report page FAILED:\n${problems.map((p) => `  - ${p}`).join("\n")}\n`);
  return 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({ options: { "out-dir": { type: "string" }, chromium: { type: "string" } } });
  process.exit(await screenshotReport({ outDir: values["out-dir"], chromium: values.chromium }));
}
