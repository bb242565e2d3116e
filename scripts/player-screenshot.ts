// npm run docs:screenshot -- --player [--out-dir DIR] [--chromium PATH] (or npx tsx scripts/player-screenshot.ts):
// screenshots of the player (/play/) for the docs, in the middle of an attempt, at a desktop width
// and at 390 px (default docs/images/player-desktop.png and player-phone.png), and a formatted
// mathematics question, its TeX stored as MathML (player-math.png).
//
// Like the report's (scripts/screenshot-browser.ts): the deploy bundle and public/ served by
// Miniflare over a throw-away D1 and KV, the demo quiz and a learner session seeded through the API
// (scripts/player-demo.ts), headless Chromium (Debian's) with every request to another origin
// aborted. It exits 1 on any CSP violation, console error, uncaught exception, failed or 4xx/5xx
// request, or attempt to reach another origin. The player's browser tests are test/e2e/player*.test.ts.
import { mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { Page } from "playwright-core";
import { PLAYER_CONTENT_SECURITY_POLICY } from "../src/lib/docs-csp";
import { png } from "../test/support/images";
import { assetUploader, createContentQuiz, createLearner, createLearnerSession, seedPlayerDemo } from "./player-demo";
import { apiClient } from "./report-demo";
import {
  adminKey,
  chromiumPath,
  launchChromium,
  log,
  type ScreenshotRun,
  screenshotRun,
  serveBundle,
  TIMEOUT_MS,
  unpluggedPage,
  watchAppPage,
} from "./screenshot-browser";

/** Desktop: the ordering question, the list beside it; phone: the matching question, its selects. */
const SHOTS = [
  { file: "player-desktop.png", viewport: { width: 1280, height: 800 }, question: 6 },
  { file: "player-phone.png", viewport: { width: 390, height: 844 }, question: 7 },
] as const;

/** The formatted quiz's first question: an equation (MathML) in the prompt, answered. */
const MATH_SHOT = { file: "player-math.png", viewport: { width: 1280, height: 800 } } as const;

/** A player page with the network unplugged, watched for what fails the run. */
async function playerPage(run: ScreenshotRun, origin: string, viewport: { width: number; height: number }) {
  const opened = await unpluggedPage(run, origin, viewport);
  watchAppPage(opened.page, origin, run.problems, { policy: PLAYER_CONTENT_SECURITY_POLICY, name: "player" });
  return opened;
}

/** An attempt under way: the first five answered, the third flagged, the ordering half done. */
async function midAttempt(page: Page) {
  const body = page.locator("#question-body");
  const go = async (n: number) => {
    await page.locator(`#question-list li:nth-child(${n}) button`).click();
    await page.locator("#question-heading", { hasText: `Question ${n} of` }).waitFor();
  };
  await body.getByLabel("Mercury", { exact: true }).check();
  await go(2);
  await body.getByLabel("Jupiter", { exact: true }).check();
  await body.getByLabel("Saturn", { exact: true }).check();
  await go(3);
  await body.getByLabel("True", { exact: true }).check();
  await page.locator("#flag").click();
  await go(4);
  await body.getByLabel("Your answer").fill("Olympus Mons");
  await go(5);
  await body.getByLabel("Your answer (a number)").fill("8");
  await go(6);
  const items = async () => body.locator(".ordering-item .item-text").allTextContents();
  while ((await items()).indexOf("Venus") > 0) await body.getByRole("button", { name: "Move up: Venus", exact: true }).click();
  await go(7);
  await body.getByLabel("Titan", { exact: true }).selectOption({ label: "Saturn" });
  await page.locator("#save-status", { hasText: /^Saved$/ }).waitFor({ timeout: TIMEOUT_MS });
}

export async function screenshotPlayer(options: { outDir?: string; chromium?: string } = {}): Promise<number> {
  const outDir = resolve(options.outDir ?? "docs/images");
  const executablePath = chromiumPath(options.chromium);
  return screenshotRun("player", "player-screenshot-", async (run) => {
    const origin = await serveBundle(run);
    const key = await adminKey(run, "player screenshot");
    const admin = apiClient(origin, key);
    const demo = await seedPlayerDemo(admin);
    log(`serving the deploy bundle and public/ at ${origin}; demo quiz ${demo.quizId}`);

    await launchChromium(run, executablePath);
    mkdirSync(outDir, { recursive: true });
    for (const shot of SHOTS) {
      // Each shot its own learner's attempt, so both show the same progress.
      const session =
        shot === SHOTS[0]
          ? demo.session
          : await createLearnerSession(admin, {
              user_id: (await admin("/v1/users", { body: { name: "Sam Rivera" } })).json.id,
              quiz_id: demo.quizId,
              return_url: "https://lms.example.org/course/7",
            });
      const { context, page } = await playerPage(run, origin, shot.viewport);
      await page.goto(session.playerUrl, { timeout: TIMEOUT_MS });
      await page.locator("#start-attempt").click({ timeout: TIMEOUT_MS });
      await page.locator("#question-heading").waitFor({ timeout: TIMEOUT_MS });
      await midAttempt(page);
      await page.locator(`#question-list li:nth-child(${shot.question}) button`).click();
      await page.locator("#question-heading", { hasText: `Question ${shot.question} of` }).waitFor();
      // The timer says 29:5x, whenever this runs; the focus ring would be noise.
      await page.evaluate("document.activeElement?.blur(); window.scrollTo(0, 0)");
      const path = join(outDir, shot.file);
      await page.screenshot({ path, type: "png", fullPage: false });
      log(`screenshot ${path} (${(statSync(path).size / 1024).toFixed(0)} KiB)`);
      await context.close();
    }

    const content = await createContentQuiz(admin, assetUploader(origin, key), png(6, 2, 0x2a));
    const mathSession = await createLearnerSession(admin, {
      user_id: await createLearner(admin),
      quiz_id: content.quizId,
      return_url: "https://lms.example.org/course/7",
    });
    const { context, page } = await playerPage(run, origin, MATH_SHOT.viewport);
    await page.goto(mathSession.playerUrl, { timeout: TIMEOUT_MS });
    await page.locator("#start-attempt").click({ timeout: TIMEOUT_MS });
    await page.locator("#question-body .prompt math").first().waitFor({ timeout: TIMEOUT_MS });
    await page.locator("#question-body").getByLabel("Your answer (a number)").fill("3");
    await page.locator("#save-status", { hasText: /^Saved$/ }).waitFor({ timeout: TIMEOUT_MS });
    await page.evaluate("document.activeElement?.blur(); window.scrollTo(0, 0)");
    const mathPath = join(outDir, MATH_SHOT.file);
    await page.screenshot({ path: mathPath, type: "png", fullPage: false });
    log(`screenshot ${mathPath} (${(statSync(mathPath).size / 1024).toFixed(0)} KiB)`);
    await context.close();
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({ options: { "out-dir": { type: "string" }, chromium: { type: "string" } } });
  process.exit(await screenshotPlayer({ outDir: values["out-dir"], chromium: values.chromium }));
}
