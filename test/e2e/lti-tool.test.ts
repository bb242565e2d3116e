// The LTI tool in a real browser (docs/lti.md): Debian's Chromium, driven by playwright-core,
// against `npm run dev`, with the loopback platform of test/lti-platform.ts as the LMS (set up as
// npm run dev:lms sets it up, scripts/dev-lms-setup.ts). The LMS's course page (127.0.0.1) frames
// the tool (localhost): another site, so the tool is a third party, as in Canvas or Moodle. A CSP
// violation or an uncaught exception fails the test.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LocalLms, prepareLocalLms } from "../../scripts/dev-lms-setup";
import { startLoopbackPlatform } from "../lti-platform";
import { CHROMIUM, CHROMIUM_ARGS, launchChromium } from "./chromium";
import { useDevServer } from "./dev-server";

const TIMEOUT_MS = 90_000;

const devServer = useDevServer();
let platform: Awaited<ReturnType<typeof startLoopbackPlatform>>;
let lms: LocalLms;
let browser: Browser;
let toolOrigin: string;
const problems: string[] = [];
const profiles: string[] = [];

beforeAll(async () => {
  const server = devServer();
  platform = await startLoopbackPlatform();
  toolOrigin = server.url.replace("127.0.0.1", "localhost");
  lms = await prepareLocalLms({ api: server.url, key: server.key, lms: platform.url, toolOrigin, name: "e2e-lms" });
  browser = await launchChromium();
}, TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await platform?.close();
  for (const dir of profiles) rmSync(dir, { recursive: true, force: true });
});

function watch(page: Page): Page {
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(String(error)));
  return page;
}

/** The tool's frame on the LMS's course page, once it shows `text`. */
async function toolFrame(page: Page, text: string | RegExp): Promise<Frame> {
  const frame = page.frameLocator("#tool");
  await frame.getByText(text).first().waitFor({ timeout: 30_000 });
  const found = page.frames().find((f) => f.url().startsWith(toolOrigin));
  if (!found) throw new Error(`no frame of ${toolOrigin}: ${page.frames().map((f) => f.url())}`);
  return found;
}

/** A browser whose settings block the tool's cookies inside the LMS's pages (a third-party cookie block, partitioned ones included). */
async function cookieBlockingContext(): Promise<BrowserContext> {
  const dir = mkdtempSync(join(tmpdir(), "quiz-e2e-profile-"));
  profiles.push(dir);
  mkdirSync(join(dir, "Default"));
  const exception = `${toolOrigin},${new URL(platform.url).origin}`;
  writeFileSync(
    join(dir, "Default", "Preferences"),
    JSON.stringify({ profile: { content_settings: { exceptions: { cookies: { [exception]: { setting: 2 } } } } } }),
  );
  return chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

describe("the LTI tool in Chromium", () => {
  beforeEach(() => {
    problems.length = 0;
  });

  it(
    "a learner's launch from the LMS's course page lands on the player in the tool's frame, and an instructor's on the quiz's report",
    async () => {
      const context = await browser.newContext();
      const page = watch(await context.newPage());
      const player = page.waitForRequest((r) => r.url().startsWith(`${toolOrigin}/play/`), { timeout: 30_000 });
      await page.goto(lms.learnerUrl);
      expect(new URL((await player).url()).pathname).toBe("/play/");
      // This Chromium refuses sessionStorage to third-party frames: the player keeps the token in
      // the page's memory there and signs in inside the LMS's frame all the same.
      const framedPlayer = await toolFrame(page, "Start the attempt");
      expect(new URL(framedPlayer.url()).pathname).toBe("/play/");
      const report = page.waitForRequest((r) => r.url().startsWith(`${toolOrigin}/reports/`), { timeout: 30_000 });
      await page.goto(lms.instructorReportUrl);
      expect(new URL((await report).url()).pathname).toBe("/reports/");
      // So does the report, and opened at the top level (as Moodle's "new window" does) it signs
      // in from the fragment and shows the quiz too.
      await toolFrame(page, "Local LMS sample quiz");
      problems.length = 0;
      const top = watch(await context.newPage());
      await top.goto(new URL(lms.instructorReportUrl).searchParams.get("login") ?? "");
      await top.waitForURL((url) => url.pathname === "/reports/", { timeout: 30_000 });
      await top.getByText("Local LMS sample quiz").first().waitFor({ timeout: 30_000 });
      expect(problems).toEqual([]);
      await context.close();
    },
    TIMEOUT_MS,
  );

  it(
    "an instructor's deep linking: the picker in the frame, a quiz chosen, the signed response posted back and verified by the LMS",
    async () => {
      const context = await browser.newContext();
      const page = watch(await context.newPage());
      await page.goto(lms.instructorUrl);
      const frame = await toolFrame(page, "Choose quizzes to add");
      await frame.getByLabel("Search by title").fill("Local LMS sample");
      await frame.getByRole("button", { name: "Search" }).click();
      await frame
        .getByLabel(/Local LMS sample quiz/)
        .first()
        .check();
      await frame.getByRole("button", { name: "Add to the course" }).click();
      // /lti/auto-submit.js posts the JWT to the LMS's return URL in the same frame.
      await page.frameLocator("#tool").getByText("Received 1 item(s)").waitFor({ timeout: 30_000 });
      const log = (await (await fetch(`${platform.url}/p/e2e-lms/tool-log`)).json()) as {
        deep_links: { ok: boolean; payload: Record<string, unknown> }[];
      };
      const last = log.deep_links.at(-1);
      expect(last?.ok).toBe(true);
      const items = last?.payload["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"] as {
        custom: { quiz_id: string };
      }[];
      expect(items.map((i) => i.custom.quiz_id)).toContain(lms.quizId);
      expect(problems).toEqual([]);
      await context.close();
    },
    TIMEOUT_MS,
  );

  it(
    "with the tool's cookies blocked in the LMS's frame: the launch completes in the new window the frame's button opens",
    async () => {
      const context = await cookieBlockingContext();
      const page = watch(await context.newPage());
      await page.goto(lms.learnerUrl);
      const frame = await toolFrame(page, "Open the quiz in a new window");
      const opened = context.waitForEvent("page");
      await frame.getByRole("button", { name: "Open the quiz" }).click();
      const window = watch(await opened);
      await window.waitForURL((url) => url.pathname === "/play/", { timeout: 30_000 });
      expect(new URL(window.url()).origin).toBe(toolOrigin);
      // The player, at the top level, signed in with the launch's learner session: the quiz's start screen.
      await window.getByText("Local LMS sample quiz").first().waitFor({ timeout: 30_000 });
      expect(problems).toEqual([]);
      await context.close();
    },
    TIMEOUT_MS,
  );
});
