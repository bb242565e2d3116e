// npm run docs:screenshot [-- --out FILE] [--chromium PATH]: proves in a real browser that /docs
// works with the network unplugged and under its Content-Security-Policy, and saves a screenshot
// (default docs/images/docs-page.png). With --report [--out-dir DIR], the report page's instead
// (scripts/report-screenshot.ts); with --player [--out-dir DIR], the player's (scripts/player-screenshot.ts).
//
// It copies the docs' renderer into public/ (scripts/docs-assets.ts), builds the bundle
// `npm run deploy` uploads into a temporary folder, serves it with its static assets under
// Miniflare (scripts/local-worker.ts: wrangler.toml's bindings and [assets], a throw-away D1/KV),
// and opens /docs in headless Chromium (Debian's: `apt-get install chromium`) with every request
// to another origin aborted. It waits until Swagger UI shows every operation of /openapi.json,
// takes the screenshot, then exercises the page (expands operations, runs GET /health with "Try
// it out", opens the Authorize dialog). It exits 1 on any CSP violation, console error, uncaught
// exception, failed or 4xx/5xx same-origin request, or attempt to reach another origin.
import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Page } from "playwright-core";
import { DOCS_CONTENT_SECURITY_POLICY } from "../src/lib/docs-csp";
import { copyDocsAssets } from "./docs-assets";
import { chromiumPath, launchChromium, log, screenshotRun, serveBundle, TIMEOUT_MS, unpluggedPage } from "./screenshot-browser";

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    chromium: { type: "string" },
    report: { type: "boolean" },
    player: { type: "boolean" },
    "out-dir": { type: "string" },
  },
});
const OUT = resolve(values.out ?? "docs/images/docs-page.png");
const CHROMIUM = chromiumPath(values.chromium);
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
function operationCount(doc: { paths?: Record<string, Record<string, unknown>> }): number {
  let n = 0;
  for (const item of Object.values(doc.paths ?? {})) n += Object.keys(item).filter((k) => HTTP_METHODS.includes(k)).length;
  return n;
}

/** Clicks through the parts of Swagger UI that the first render does not show. */
async function exercise(page: Page) {
  // GET /health: expand, "Try it out", "Execute": a real request from the page (connect-src).
  const health = page.locator(".opblock", { has: page.locator('.opblock-summary-path[data-path="/health"]') }).first();
  await health.locator(".opblock-summary-control").click();
  await health.locator(".try-out__btn").click();
  await health.locator("button.execute").click();
  await health.locator(".live-responses-table .response-col_status", { hasText: "200" }).first().waitFor({ timeout: TIMEOUT_MS });
  log("  Try it out: GET /health → 200 rendered");

  // An operation with a JSON request body: examples, schemas, syntax highlighting.
  const post = page.locator(".opblock.opblock-post").first();
  await post.locator(".opblock-summary-control").click();
  await post.locator(".opblock-body").waitFor();
  await post.locator(".body-param__example, .highlight-code, .microlight").first().waitFor({ timeout: TIMEOUT_MS });
  const schemaTab = post.locator('[data-name="model"], .tablinks[data-name="model"]').first();
  if (await schemaTab.count()) await schemaTab.click();
  log("  expanded the first POST operation (example and schema)");

  // The Authorize dialog (API key, bearer and OAuth 2.0 client credentials).
  await page.locator(".auth-wrapper .authorize").first().click();
  await page.locator(".modal-ux").waitFor();
  await page.locator(".modal-ux .close-modal").click();
  log("  opened and closed the Authorize dialog");

  // The Schemas section at the end of the page (JSON Schema 2020-12 views): one schema, deep.
  const models = page.locator("section.models").first();
  if (await models.count()) {
    await models.scrollIntoViewIfNeeded();
    if (!(await page.locator("section.models.is-open").count())) await models.locator(".models-control").click();
    const first = models.locator(".json-schema-2020-12").first();
    await first.waitFor({ timeout: TIMEOUT_MS });
    await first.locator(".json-schema-2020-12-accordion").first().click();
    await first.locator(".json-schema-2020-12-expand-deep-button").first().click();
    log("  expanded the Schemas section and one schema, deep");
  }
  // Let late violations and console messages arrive.
  await page.waitForTimeout(500);
}

async function main(): Promise<number> {
  return screenshotRun("docs page", "docs-screenshot-", async (run) => {
    const docs = copyDocsAssets();
    const origin = await serveBundle(run);
    log(`serving the deploy bundle and public/ (swagger-ui-dist ${docs.version}) at ${origin}`);

    const doc = (await (await fetch(`${origin}/openapi.json`)).json()) as { paths?: Record<string, Record<string, unknown>> };
    const operations = operationCount(doc);

    await launchChromium(run, CHROMIUM);
    const { page } = await unpluggedPage(run, origin, { width: 1280, height: 900 });
    const { problems } = run;
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`uncaught: ${e.message}`));
    page.on("requestfailed", (r) => {
      if (new URL(r.url()).origin === origin) problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
    });
    page.on("response", (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} for ${r.url()}`);
      else if (
        new URL(r.url()).pathname.startsWith("/docs") &&
        r.headers()["content-security-policy"] !== DOCS_CONTENT_SECURITY_POLICY
      )
        problems.push(`no docs CSP on ${r.url()}`);
    });

    const response = await page.goto(`${origin}/docs`, { waitUntil: "load", timeout: TIMEOUT_MS });
    if (response?.status() !== 200) throw new Error(`GET /docs → ${response?.status()}`);
    log(`GET /docs → 200, CSP: ${response.headers()["content-security-policy"]}`);
    // A locator's wait, not waitForFunction: the page's CSP forbids the eval a predicate string needs.
    await page
      .locator(".opblock")
      .nth(operations - 1)
      .waitFor({ timeout: TIMEOUT_MS });
    const rendered = await page.locator(".opblock").count();
    log(`rendered ${rendered} operations (${operations} in /openapi.json)`);
    if (rendered !== operations) problems.push(`rendered ${rendered} operations, the document has ${operations}`);

    await page.evaluate("window.scrollTo(0, 0)");
    mkdirSync(dirname(OUT), { recursive: true });
    await page.screenshot({ path: OUT, type: "png" });
    log(`screenshot ${OUT} (${(statSync(OUT).size / 1024).toFixed(0)} KiB)`);

    await exercise(page);
  });
}

if (values.player) {
  const { screenshotPlayer } = await import("./player-screenshot");
  process.exit(await screenshotPlayer({ outDir: values["out-dir"], chromium: values.chromium }));
}
if (values.report) {
  const { screenshotReport } = await import("./report-screenshot");
  process.exit(await screenshotReport({ outDir: values["out-dir"], chromium: values.chromium }));
}
process.exit(await main());
