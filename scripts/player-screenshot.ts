// npm run docs:screenshot -- --player [--out-dir DIR] [--chromium PATH] (or npx tsx scripts/player-screenshot.ts):
// screenshots of the player (/play/) for the docs, in the middle of an attempt, at a desktop width
// and at 390 px (default docs/images/player-desktop.png and player-phone.png), and a formatted
// mathematics question, its TeX stored as MathML (player-math.png).
//
// Like the report's: the deploy bundle and public/ served by Miniflare over a throw-away D1 and KV
// (scripts/local-worker.ts), the demo quiz and a learner session seeded through the API
// (scripts/player-demo.ts), headless Chromium (Debian's) with every request to another origin
// aborted. It exits 1 on any CSP violation, console error, uncaught exception, failed or 4xx/5xx
// request, or attempt to reach another origin. The player's browser tests are test/e2e/player*.test.ts.
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type Browser, chromium, type Page } from "playwright-core";
import { newApiKey } from "../src/auth/api-keys";
import { PLAYER_CONTENT_SECURITY_POLICY, SHARED_CONTENT_SECURITY_POLICY } from "../src/lib/docs-csp";
import { png } from "../test/support/images";
import { buildWorker } from "./build";
import { type LocalWorker, startLocalWorker } from "./local-worker";
import { assetUploader, createContentQuiz, createLearner, createLearnerSession, seedPlayerDemo } from "./player-demo";
import { apiClient } from "./report-demo";

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
/** Desktop: the ordering question, the list beside it; phone: the matching question, its selects. */
const SHOTS = [
  { file: "player-desktop.png", viewport: { width: 1280, height: 800 }, question: 6 },
  { file: "player-phone.png", viewport: { width: 390, height: 844 }, question: 7 },
] as const;

/** The formatted quiz's first question: an equation (MathML) in the prompt, answered. */
const MATH_SHOT = { file: "player-math.png", viewport: { width: 1280, height: 800 } } as const;

const log = (line: string) => process.stdout.write(`${line}\n`);

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
        (url.pathname.startsWith("/shared/") ? SHARED_CONTENT_SECURITY_POLICY : PLAYER_CONTENT_SECURITY_POLICY)
      )
        problems.push(`no player CSP on ${r.url()}`);
  });
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
  const executablePath = options.chromium ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const dir = mkdtempSync(join(tmpdir(), "player-screenshot-"));
  const problems: string[] = [];
  const blocked: string[] = [];
  let worker: LocalWorker | undefined;
  let browser: Browser | undefined;
  try {
    const { outfile } = await buildWorker({ outdir: join(dir, "dist"), minify: true });
    worker = await startLocalWorker({ scriptPath: outfile, persistRoot: join(dir, "state"), quiet: true });
    const origin = worker.url;
    const { key, row } = await newApiKey({ name: "player screenshot", scopes: ["admin"], expiresAt: null });
    await (await worker.mf.getD1Database("DB"))
      .prepare("INSERT INTO api_keys (id, name, key_hash, prefix, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .bind(row.id, row.name, row.keyHash, row.prefix, JSON.stringify(row.scopes), row.createdAt)
      .run();
    const admin = apiClient(origin, key);
    const demo = await seedPlayerDemo(admin);
    log(`serving the deploy bundle and public/ at ${origin}; demo quiz ${demo.quizId}`);

    browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
    log(`Chromium ${browser.version()} (${executablePath})`);
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
    const context = await browser.newContext({ viewport: MATH_SHOT.viewport, deviceScaleFactor: 1, serviceWorkers: "block" });
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
  } catch (error) {
    problems.push(`failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await browser?.close().catch(() => {});
    await worker?.dispose().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
  for (const url of blocked) problems.push(`tried another origin: ${url}`);
  if (problems.length === 0) {
    log("player OK: no CSP violation, no console error, no request to another origin");
    return 0;
  }
  process.stderr.write(`player FAILED:\n${problems.map((p) => `  - ${p}`).join("\n")}\n`);
  return 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({ options: { "out-dir": { type: "string" }, chromium: { type: "string" } } });
  process.exit(await screenshotPlayer({ outDir: values["out-dir"], chromium: values.chromium }));
}
