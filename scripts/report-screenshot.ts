// npm run docs:screenshot -- --report [--out-dir DIR] [--chromium PATH] (or npx tsx scripts/report-screenshot.ts):
// screenshots of the report page (/reports/) for the docs, at a desktop width and at 390 px
// (default docs/images/report-desktop.png and report-phone.png).
//
// Like the docs' screenshot (scripts/screenshot-browser.ts): the deploy bundle and public/ served by
// Miniflare over a throw-away D1 and KV, the demo quiz seeded through the API (scripts/report-demo.ts),
// headless Chromium (Debian's) with every request to another origin aborted. It exits 1 on any CSP
// violation, console error, uncaught exception, failed or 4xx/5xx request, or attempt to reach
// another origin. The browser tests of the page are test/e2e/report-page.test.ts.
import { mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { REPORTS_CONTENT_SECURITY_POLICY } from "../src/lib/docs-csp";
import { apiClient, seedReportDemo } from "./report-demo";
import {
  adminKey,
  chromiumPath,
  launchChromium,
  log,
  screenshotRun,
  serveBundle,
  TIMEOUT_MS,
  unpluggedPage,
  watchAppPage,
} from "./screenshot-browser";

// The first three screens' height: on a desktop down to the first questions' option bars and
// tables, on a phone (whose shot starts at the report's title, below the quiz list) down to the
// item table. The whole page is ~4 000 px tall on a desktop, ~6 500 px on a phone.
const SHOTS = [
  { file: "report-desktop.png", viewport: { width: 1280, height: 900 }, from: "page", screens: 3 },
  { file: "report-phone.png", viewport: { width: 390, height: 844 }, from: "report", screens: 3 },
] as const;

export async function screenshotReport(options: { outDir?: string; chromium?: string } = {}): Promise<number> {
  const outDir = resolve(options.outDir ?? "docs/images");
  const executablePath = chromiumPath(options.chromium);
  return screenshotRun("report page", "report-screenshot-", async (run) => {
    const origin = await serveBundle(run);
    const key = await adminKey(run, "report screenshot");
    const { quizId } = await seedReportDemo(apiClient(origin, key));
    log(`serving the deploy bundle and public/ at ${origin}; demo quiz ${quizId}`);

    await launchChromium(run, executablePath);
    mkdirSync(outDir, { recursive: true });
    for (const shot of SHOTS) {
      const { context, page } = await unpluggedPage(run, origin, shot.viewport);
      watchAppPage(page, origin, run.problems, { policy: REPORTS_CONTENT_SECURITY_POLICY, name: "reports" });
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
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({ options: { "out-dir": { type: "string" }, chromium: { type: "string" } } });
  process.exit(await screenshotReport({ outDir: values["out-dir"], chromium: values.chromium }));
}
