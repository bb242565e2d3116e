// The report (/reports/) and the landing page (/) in a real browser: Debian's Chromium driven by
// playwright-core, against the bundle `npm run deploy` uploads, served with its static assets by
// Miniflare over a throw-away D1 and KV (test/e2e/chromium.ts), seeded through the API
// (scripts/report-demo.ts). Every request the browser makes is recorded and any to another origin
// is aborted and fails the test, as do a CSP violation, a console error and an uncaught exception.
// The figures on the page are compared with what the API answers for the same quiz.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, DEMO_QUIZ_TITLE, FILLER_QUIZZES, MARKUP_TITLE, seedReportDemo } from "../../scripts/report-demo";
import { REPORTS_CONTENT_SECURITY_POLICY } from "../../src/lib/docs-csp";
import {
  axeViolations,
  type BuiltWorker,
  expectNoProblems,
  launchChromium,
  noHorizontalScroll,
  startBuiltWorker,
  stopBuiltWorker,
  type Watched,
  watchContext,
  watchPage,
} from "./chromium";

const SETUP_TIMEOUT_MS = 240_000;
const TEST_TIMEOUT_MS = 90_000;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const STORAGE_KEY = "quiz-reports:credential";
const EXPORTS = [
  { shape: "submissions", format: "csv" },
  { shape: "submissions", format: "ndjson" },
  { shape: "answers", format: "csv" },
  { shape: "answers", format: "ndjson" },
] as const;

let built: BuiltWorker;
let browser: Browser;
let origin: string;
let adminKey: string;
/** quizzes:read and analytics:read only: sees no answer keys. */
let readerKey: string;
let quizId: string;
let api: ReturnType<typeof apiClient>;

interface Session extends Watched {
  context: BrowserContext;
  page: Page;
}

/** bypassCSP: for the accessibility checks only, whose engine (axe-core) is added to the page as a script. */
async function open(viewport = DESKTOP, { bypassCSP = false, colorScheme = "light" as "light" | "dark" } = {}): Promise<Session> {
  const context = await browser.newContext({
    viewport,
    deviceScaleFactor: 1,
    serviceWorkers: "block",
    acceptDownloads: true,
    bypassCSP,
    colorScheme,
  });
  const session: Session = { context, page: undefined as unknown as Page, problems: [], requests: [], offOrigin: [] };
  await watchContext(context, origin, session, { unreadable: { authorization: "(unreadable)" } });
  session.page = watchPage(await context.newPage(), origin, session, {
    policy: REPORTS_CONTENT_SECURITY_POLICY,
    name: "reports",
  });
  return session;
}

/**
 * Nothing went wrong: no problem but the console's report of API answers the test provoked
 * (Chromium logs every non-2xx fetch as an error), no request to another origin, and the
 * credential only ever in the Authorization header of this origin's /v1/ requests.
 */
async function expectClean(session: Session, expectedFailures: RegExp[] = []) {
  expectNoProblems(session, expectedFailures);
  for (const request of session.requests) {
    const url = new URL(request.url);
    expect(url.origin, request.url).toBe(origin);
    if (url.pathname.startsWith("/v1/")) expect(request.authorization, request.url).toMatch(/^Bearer \S+$/);
    else expect(request.authorization, `${request.url} carries no credential`).toBeUndefined();
  }
  await session.context.close();
}

async function signIn(page: Page, key: string) {
  await page.goto(`${origin}/reports/`);
  await page.locator("#credential").fill(key);
  await page.locator("#credential").press("Enter");
  await page.locator("#quiz-list a").first().waitFor();
}

/** Opens the demo quiz from the list (its second page). */
async function openDemoQuiz(page: Page) {
  await page.locator("#more-quizzes").click();
  await page.locator(`#quiz-list a[data-quiz-id="${quizId}"]`).click();
  await page.locator("#report-title").waitFor();
  await expect.poll(() => page.locator("#report-title").textContent()).toBe(DEMO_QUIZ_TITLE);
}

/** Presses Tab until the focused element matches selector; answers how many presses it took. */
async function tabTo(page: Page, selector: string, max = 120): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return i;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Each table region's overflow: what of its table the region's width does not show (0 when it fits). */
const tableOverflow = (page: Page) =>
  page.evaluate(
    `Object.fromEntries([...document.querySelectorAll("#report .table-scroll")].map((d) => [d.getAttribute("aria-label"), d.scrollWidth - d.clientWidth]))`,
  ) as Promise<Record<string, number>>;

/** The API's answers for the demo quiz, as the admin key reads them. */
async function apiFigures(key = adminKey) {
  const call = apiClient(origin, key);
  const [analytics, items, questions] = await Promise.all([
    call(`/v1/analytics/quiz/${quizId}`),
    call(`/v1/analytics/quiz/${quizId}/items`),
    call(`/v1/quizzes/${quizId}/questions?limit=100`),
  ]);
  expect([analytics.status, items.status, questions.status]).toEqual([200, 200, 200]);
  return { analytics: analytics.json, items: items.json, questions: questions.json.questions as any[] };
}

const raw = (v: number | null | undefined) => (v === null || v === undefined ? "" : String(v));
const fixed = (v: number | null, digits: number) => (v === null ? "—" : v.toFixed(digits));

/** Rows of a table as { data-value, text } per data-column, keyed by a row attribute. */
async function tableRows(page: Page, rowSelector: string, keyAttribute: string) {
  return (await page.evaluate(`[...document.querySelectorAll(${JSON.stringify(rowSelector)})].map((tr) => ({
    key: tr.getAttribute(${JSON.stringify(keyAttribute)}),
    cells: Object.fromEntries([...tr.children].filter((c) => c.dataset.column).map((c) => [c.dataset.column, { value: c.dataset.value ?? null, text: c.textContent }])),
    flags: [...tr.querySelectorAll("[data-flag]")].map((f) => f.dataset.flag),
    isKey: tr.classList.contains("key"),
  }))`)) as { key: string; cells: Record<string, { value: string | null; text: string }>; flags: string[]; isKey: boolean }[];
}

beforeAll(async () => {
  built = await startBuiltWorker("report-e2e-", "report e2e");
  origin = built.worker.url;
  adminKey = built.adminKey;
  api = apiClient(origin, adminKey);
  ({ quizId } = await seedReportDemo(api));
  const reader = await api("/v1/api-keys", { body: { name: "report reader", scopes: ["quizzes:read", "analytics:read"] } });
  expect(reader.status).toBe(201);
  readerKey = reader.json.key;
  browser = await launchChromium();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await stopBuiltWorker(built, browser);
});

describe("GET / in a browser", () => {
  it(
    "is the landing page linking /docs, /reports/ and /openapi.json, under the CSP, and leads to the report",
    async () => {
      const session = await open();
      const { page } = session;
      const response = await page.goto(`${origin}/`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-type"]).toMatch(/^text\/html/);
      expect(response?.headers()["content-security-policy"]).toBe(REPORTS_CONTENT_SECURITY_POLICY);
      const hrefs = await page.evaluate(`[...document.querySelectorAll("main a")].map((a) => a.getAttribute("href"))`);
      expect(hrefs).toEqual(["/docs", "/reports/", "/openapi.json"]);
      await page.getByRole("link", { name: "Reports" }).click();
      await page.locator("#credential").waitFor();
      expect(new URL(page.url()).pathname).toBe("/reports/");
      await expectClean(session);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("/reports/ in a browser", () => {
  it(
    "signs in with a credential kept in this tab's sessionStorage only, refuses a bad one, survives a reload, and signs out",
    async () => {
      const session = await open();
      const { page } = session;
      await page.goto(`${origin}/reports/`);
      await page.locator("#credential").fill(`qz_live_${"A".repeat(38)}`);
      await page.locator("#signin-form button").click();
      await expect.poll(() => page.locator("#signin-error").textContent()).toMatch(/refused/);
      expect(await page.locator("#quizzes").isHidden()).toBe(true);

      await signIn(page, adminKey);
      expect(await page.evaluate(`sessionStorage.getItem(${JSON.stringify(STORAGE_KEY)})`)).toBe(adminKey);
      expect(await page.evaluate("localStorage.length")).toBe(0);
      expect(await page.evaluate("document.cookie")).toBe("");
      expect(page.url()).not.toContain(adminKey);
      expect(await page.locator("#credential").inputValue()).toBe("");

      await page.reload();
      await page.locator("#quiz-list a").first().waitFor();
      expect(await page.locator("#signin").isHidden()).toBe(true);

      await page.locator("#signout").click();
      await page.locator("#credential").waitFor();
      expect(await page.evaluate(`sessionStorage.getItem(${JSON.stringify(STORAGE_KEY)})`)).toBeNull();
      expect(await page.locator("#quiz-list a").count()).toBe(0);

      // A new tab of the same browser profile starts signed out: sessionStorage is per tab.
      await signIn(page, adminKey);
      const other = await session.context.newPage();
      await other.goto(`${origin}/reports/`);
      await other.locator("#credential").waitFor();
      expect(await other.evaluate(`sessionStorage.getItem(${JSON.stringify(STORAGE_KEY)})`)).toBeNull();
      await other.close();

      const verify = session.requests.filter((r) => new URL(r.url).pathname === "/v1/auth/verify");
      expect(verify.map((r) => r.authorization)).toContain(`Bearer ${adminKey}`);
      await expectClean(session, [/\/v1\/auth\/verify$/]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "signs in from a report session's report_url: the token leaves the address bar for sessionStorage, and only its quiz is listed",
    async () => {
      const minted = await api("/v1/report-sessions", { body: { quiz_ids: [quizId] } });
      expect(minted.status).toBe(201);
      const { token, report_url: reportUrl } = minted.json as { token: string; report_url: string };
      expect(reportUrl).toBe(`${origin}/reports/#session=${token}`);
      const session = await open();
      const { page } = session;
      await page.goto(reportUrl);
      await page.locator("#quiz-list a").first().waitFor();
      expect(page.url()).toBe(`${origin}/reports/`);
      expect(await page.evaluate("window.location.hash")).toBe("");
      expect(await page.evaluate(`sessionStorage.getItem(${JSON.stringify(STORAGE_KEY)})`)).toBe(token);
      expect(await page.evaluate("localStorage.length")).toBe(0);
      expect(await page.locator("#quiz-list a").count()).toBe(1);
      await page.locator(`#quiz-list a[data-quiz-id="${quizId}"]`).click();
      await expect.poll(() => page.locator("#report-title").textContent()).toBe(DEMO_QUIZ_TITLE);
      // The token went only into the Authorization header of this origin's API calls.
      for (const request of session.requests) expect(request.url).not.toContain(token);
      expect(session.requests.some((r) => r.authorization === `Bearer ${token}`)).toBe(true);
      await expectClean(session);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "lists quizzes a page at a time, following next_cursor, and writes titles as text",
    async () => {
      const session = await open();
      const { page } = session;
      await signIn(page, adminKey);
      expect(await page.locator("#quiz-list a").count()).toBe(20);
      expect(await page.locator("#more-quizzes").isVisible()).toBe(true);
      await page.locator("#more-quizzes").click();
      await expect.poll(() => page.locator("#quiz-list a").count()).toBe(FILLER_QUIZZES + 2);
      expect(await page.locator("#more-quizzes").isHidden()).toBe(true);

      const listed = session.requests;
      const pages = listed.filter((r) => new URL(r.url).pathname === "/v1/quizzes");
      expect(pages).toHaveLength(2);
      expect(new URL(pages[1]!.url).searchParams.get("cursor")).toBeTruthy();

      // A title that looks like markup is shown as the text it is, and made no element.
      const markup = page.locator("#quiz-list a").filter({ hasText: "Lab safety" });
      expect(await markup.textContent()).toBe(MARKUP_TITLE);
      expect(await page.locator("[data-injected], #quiz-list img, #quiz-list b").count()).toBe(0);
      await markup.click();
      await expect.poll(() => page.locator("#report-title").textContent()).toBe(MARKUP_TITLE);
      expect(await page.locator("[data-injected], #report img, #report b").count()).toBe(0);
      await expectClean(session);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "shows the API's figures: summary, histogram, item table, scatter, option shares with the key marked",
    async () => {
      const { analytics, items, questions } = await apiFigures();
      const session = await open();
      const { page } = session;
      await signIn(page, adminKey);
      await openDemoQuiz(page);

      // Summary: attempts, mean, standard deviation, reliability.
      const summary = (await page.evaluate(
        `Object.fromEntries([...document.querySelectorAll("[data-figure]")].map((d) => [d.dataset.figure, { value: d.dataset.value, text: d.textContent }]))`,
      )) as Record<string, { value: string; text: string }>;
      expect(summary.attempts).toEqual({ value: raw(analytics.total_attempts), text: String(analytics.total_attempts) });
      expect(summary.mean).toEqual({ value: raw(analytics.avg_score), text: fixed(analytics.avg_score, 2) });
      expect(summary.stddev).toEqual({ value: raw(analytics.stddev_score), text: fixed(analytics.stddev_score, 2) });
      expect(summary.reliability).toEqual({ value: raw(items.reliability), text: fixed(items.reliability, 3) });
      expect(analytics.total_attempts).toBe(12);

      // The histogram's table: one row per bucket of score_distribution.
      const histogram = (await page.evaluate(
        `[...document.querySelectorAll("#histogram-table tbody tr")].map((tr) => ({ from: Number(tr.dataset.from), to: Number(tr.dataset.to), count: Number(tr.querySelector("td").dataset.value) }))`,
      )) as { from: number; to: number; count: number }[];
      expect(histogram).toEqual(analytics.score_distribution);
      const bars = await page.locator("#report figure svg").first().locator("rect.bar").count();
      expect(bars).toBe(analytics.score_distribution.length);

      // The item table: difficulty, discrimination, n and flags of every item, in the quiz's order.
      const rows = await tableRows(page, "#item-table tbody tr", "data-question-id");
      expect(rows.map((r) => r.key)).toEqual(items.items.map((i: any) => i.question_id));
      for (const [i, item] of (items.items as any[]).entries()) {
        const row = rows[i]!;
        expect(row.cells.difficulty, item.question_id).toEqual({ value: raw(item.difficulty), text: fixed(item.difficulty, 3) });
        expect(row.cells.discrimination, item.question_id).toEqual({
          value: raw(item.discrimination),
          text: fixed(item.discrimination, 3),
        });
        expect(row.cells.n?.value).toBe(raw(item.n));
        expect(row.cells.question?.text).toBe(questions[i].prompt);
        // Flags when the API sends them (docs/api.md), none invented when it does not.
        expect(row.flags).toEqual(item.flags ?? []);
      }

      // The scatter: a point per item with both figures, the four thresholds drawn.
      const plotted = items.items.filter((i: any) => i.difficulty !== null && i.discrimination !== null).length;
      const scatter = page.locator("figure.scatter svg");
      expect(await scatter.locator("g.point").count()).toBe(plotted);
      expect(await scatter.locator("line.threshold").count()).toBe(4);
      expect(await scatter.getAttribute("role")).toBe("img");
      expect(await page.locator(`#${await scatter.getAttribute("aria-labelledby")}`).textContent()).toMatch(
        /difficulty 0\.2 and 0\.95, discrimination 0 and 0\.2/,
      );

      // Option shares per choice question, the key marked (this credential holds quizzes:write).
      const choice = (items.items as any[]).filter((i) => Array.isArray(i.options));
      expect(await page.locator("article.question").count()).toBe(choice.length);
      for (const item of choice) {
        const question = questions.find((q) => q.id === item.question_id);
        const key = new Set<string>(question.correct_option_ids ?? [question.correct_option_id]);
        const options = await tableRows(
          page,
          `article.question[data-question-id="${item.question_id}"] tbody tr`,
          "data-option-id",
        );
        expect(options.map((o) => o.key)).toEqual(item.options.map((o: any) => o.option_id));
        for (const [j, option] of (item.options as any[]).entries()) {
          const cells = options[j]!.cells;
          expect(cells.count?.value).toBe(raw(option.count));
          expect(cells.share?.value).toBe(raw(option.share ?? option.count / item.n));
          if (option.mean_total !== undefined) expect(cells.mean_total?.value).toBe(raw(option.mean_total));
          if (option.point_biserial !== undefined) expect(cells.point_biserial?.value).toBe(raw(option.point_biserial));
          expect(options[j]!.isKey, `${item.question_id} ${option.option_id}`).toBe(key.has(option.option_id));
        }
        const chart = page.locator(`article.question[data-question-id="${item.question_id}"] svg`);
        expect(await chart.locator("rect.bar.key").count()).toBe(key.size);
      }
      // Text that looks like markup stays text: the sixth question's prompt and an option.
      expect(await page.locator("#report").textContent()).toContain('Which stain marks the <nucleus> & "DNA"?');
      expect(await page.locator("#report").textContent()).toContain("<script>alert(1)</script>");
      expect(await page.locator("#report script, #report nucleus").count()).toBe(0);
      await expectClean(session);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "sorts the item table by every column, by click and by keyboard, with aria-sort on the sorted header",
    async () => {
      const { items } = await apiFigures();
      const session = await open();
      const { page } = session;
      await signIn(page, adminKey);
      await openDemoQuiz(page);
      const order = async () => (await tableRows(page, "#item-table tbody tr", "data-question-id")).map((r) => r.key);
      const sortedBy = (field: string, direction: 1 | -1) =>
        [...(items.items as any[])]
          .map((item, position) => ({ item, position }))
          .sort((a, b) => {
            const x = a.item[field];
            const y = b.item[field];
            if (x === null || y === null) return x === y ? a.position - b.position : x === null ? 1 : -1;
            return (x - y) * direction || a.position - b.position;
          })
          .map((e) => e.item.question_id);
      const ariaSort = () =>
        page.evaluate(
          `[...document.querySelectorAll("#item-table th[aria-sort]")].map((th) => th.querySelector("button").dataset.sort + ":" + th.getAttribute("aria-sort"))`,
        );

      expect(await ariaSort()).toEqual(["position:ascending"]);
      const difficulty = page.locator('button[data-sort="difficulty"]');
      await difficulty.click();
      expect(await ariaSort()).toEqual(["difficulty:ascending"]);
      expect(await order()).toEqual(sortedBy("difficulty", 1));
      await difficulty.click();
      expect(await ariaSort()).toEqual(["difficulty:descending"]);
      expect(await order()).toEqual(sortedBy("difficulty", -1));

      // By keyboard: Enter, then Space, on the focused header button. Items without a discrimination sort last.
      const discrimination = page.locator('button[data-sort="discrimination"]');
      await discrimination.focus();
      await page.keyboard.press("Enter");
      expect(await ariaSort()).toEqual(["discrimination:ascending"]);
      expect(await order()).toEqual(sortedBy("discrimination", 1));
      await page.keyboard.press("Space");
      expect(await ariaSort()).toEqual(["discrimination:descending"]);
      expect(await order()).toEqual(sortedBy("discrimination", -1));
      expect(await page.evaluate("document.activeElement.dataset.sort")).toBe("discrimination");

      // Every column sorts, one aria-sort at a time, and the rows stay the same rows.
      const columns = (await page.evaluate(
        `[...document.querySelectorAll("#item-table button.sort")].map((b) => b.dataset.sort)`,
      )) as string[];
      expect(columns).toEqual(expect.arrayContaining(["position", "n", "difficulty", "discrimination", "question"]));
      for (const column of columns) {
        await page.locator(`button[data-sort="${column}"]`).click();
        const state = (await ariaSort()) as string[];
        expect(state).toHaveLength(1);
        expect(state[0]).toMatch(new RegExp(`^${column}:`));
        expect([...(await order())].sort()).toEqual(items.items.map((i: any) => i.question_id).sort());
      }
      expect(await page.locator("#status").textContent()).toMatch(/^Items sorted by /);
      await expectClean(session);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "renders the distractor fields and every flag as the item analysis gives them",
    async () => {
      // The item analysis as the API answers it, with every flag set on some item (the demo quiz
      // raises only some of them): the page must show each as given.
      const { items } = await apiFigures();
      const enriched = {
        ...items,
        items: (items.items as any[]).map((item, i) => ({
          ...item,
          flags: [["too_easy"], [], ["too_hard", "negative_discrimination", "distractor_attracts_strong"]][i % 3],
        })),
      };
      // The distractor fields are the API's own: every option of a choice question carries them.
      for (const item of enriched.items.filter((i: any) => i.options))
        for (const option of item.options)
          expect(Object.keys(option)).toEqual(expect.arrayContaining(["share", "mean_total", "point_biserial"]));
      const session = await open();
      const { page } = session;
      await page.route(`${origin}/v1/analytics/quiz/${quizId}/items`, (route) =>
        route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(enriched) }),
      );
      await signIn(page, adminKey);
      await openDemoQuiz(page);
      const rows = await tableRows(page, "#item-table tbody tr", "data-question-id");
      expect(rows.map((r) => r.flags)).toEqual(enriched.items.map((i: any) => i.flags));
      expect(await page.locator('#item-table li[data-flag="too_hard"]').first().textContent()).toBe("too hard");
      for (const item of enriched.items.filter((i: any) => i.options)) {
        const options = await tableRows(
          page,
          `article.question[data-question-id="${item.question_id}"] tbody tr`,
          "data-option-id",
        );
        for (const [j, option] of (item.options as any[]).entries()) {
          const cells = options[j]!.cells;
          expect(cells.share).toEqual({ value: raw(option.share), text: `${(option.share * 100).toFixed(1)}%` });
          expect(cells.mean_total).toEqual({ value: raw(option.mean_total), text: fixed(option.mean_total, 2) });
          expect(cells.point_biserial).toEqual({ value: raw(option.point_biserial), text: fixed(option.point_biserial, 3) });
        }
        const flags = await page.locator(`article.question[data-question-id="${item.question_id}"] [data-flag]`).count();
        expect(flags).toBe(item.flags.length);
      }
      // Sorting by flags: most flags first when descending.
      await page.locator('button[data-sort="flags"]').click();
      await page.locator('button[data-sort="flags"]').click();
      const first = (await tableRows(page, "#item-table tbody tr", "data-question-id"))[0]!;
      expect(first.flags).toHaveLength(Math.max(...enriched.items.map((i: any) => i.flags.length)));
      await expectClean(session);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "marks no key for a credential without quizzes:write, and still shows every figure",
    async () => {
      const { items } = await apiFigures(readerKey);
      const session = await open();
      const { page } = session;
      await signIn(page, readerKey);
      await openDemoQuiz(page);
      expect(await page.locator("tr.key, rect.bar.key, .key-mark").count()).toBe(0);
      expect(await page.locator("section[aria-labelledby=options-heading] .note").textContent()).toMatch(/quizzes:write/);
      for (const item of (items.items as any[]).filter((i) => Array.isArray(i.options))) {
        const options = await tableRows(
          page,
          `article.question[data-question-id="${item.question_id}"] tbody tr`,
          "data-option-id",
        );
        expect(options.map((o) => o.cells.count?.value)).toEqual(item.options.map((o: any) => String(o.count)));
      }
      await expectClean(session);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "downloads both export shapes in CSV and NDJSON: fetched with the credential, saved from a Blob URL",
    async () => {
      const session = await open();
      const { page } = session;
      await signIn(page, adminKey);
      await openDemoQuiz(page);
      for (const { shape, format } of EXPORTS) {
        const path = `/v1/quizzes/${quizId}/results/export?format=${format}&shape=${shape}`;
        const button = page.locator(`button.download[data-shape="${shape}"][data-format="${format}"]`);
        const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
        expect(download.url()).toMatch(/^blob:/);
        const saved = await readFile((await download.path()) as string, "utf8");
        const direct = await fetch(`${origin}${path}`, { headers: { Authorization: `Bearer ${adminKey}` } });
        expect(direct.status).toBe(200);
        const body = await direct.text();
        const disposition = direct.headers.get("content-disposition");
        expect(saved).toBe(body);
        expect(saved.length).toBeGreaterThan(0);
        // Saved under the name the export gives (Content-Disposition), else <quiz id>-<shape>.<format>.
        const named = /filename="?([^";]+)"?/i.exec(disposition ?? "")?.[1];
        expect(download.suggestedFilename()).toBe(named && /^[\w.-]+$/.test(named) ? named : `${quizId}-${shape}.${format}`);
        await expect.poll(() => page.locator(".download-status").textContent()).toMatch(/^Saved /);
        const asked = session.requests.filter((r) => r.url === `${origin}${path}`);
        expect(asked.map((r) => r.authorization)).toEqual([`Bearer ${adminKey}`]);
      }
      await expectClean(session);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "says when a download is refused (a credential without submissions:read)",
    async () => {
      const session = await open();
      const { page } = session;
      await signIn(page, readerKey);
      await openDemoQuiz(page);
      await page.locator("button.download").first().click();
      await expect
        .poll(() => page.locator(".download-status").textContent())
        .toMatch(/^Could not download .*\(insufficient_scope, 403\)$/);
      expect(await page.locator("#report-title").isVisible()).toBe(true);
      // Chromium logs the refused fetch as a console error: that one is expected.
      await expectClean(session, [/\/results\/export\?/]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "at 390 px wide: no horizontal scroll, and the keyboard alone signs in, pages the list, opens a report, sorts and downloads",
    async () => {
      const session = await open(PHONE);
      const { page } = session;
      await page.goto(`${origin}/reports/`);
      expect(await noHorizontalScroll(page)).toBe(true);

      // Sign in: Tab to the field, type, Enter.
      expect(await tabTo(page, "#credential")).toBeLessThanOrEqual(3);
      await page.keyboard.type(adminKey);
      await page.keyboard.press("Enter");
      await page.locator("#quiz-list a").first().waitFor();
      expect(await page.evaluate("document.activeElement.id")).toBe("quizzes-heading");
      expect(await noHorizontalScroll(page)).toBe(true);

      // The next page of quizzes: Space on "More quizzes" (focus lands on the first new quiz), then Enter on the demo quiz.
      await tabTo(page, "#more-quizzes");
      await page.keyboard.press("Space");
      await expect.poll(() => page.locator("#quiz-list a").count()).toBe(FILLER_QUIZZES + 2);
      expect(await page.evaluate("document.activeElement.closest('#quiz-list') !== null")).toBe(true);
      await tabTo(page, `#quiz-list a[data-quiz-id="${quizId}"]`);
      await page.keyboard.press("Enter");
      await expect.poll(() => page.locator("#report-title").textContent()).toBe(DEMO_QUIZ_TITLE);
      await expect.poll(() => page.evaluate("document.activeElement.id")).toBe("report-title");
      expect(await noHorizontalScroll(page)).toBe(true);

      // Sorting: Tab to the difficulty header, Space.
      await tabTo(page, 'button[data-sort="difficulty"]');
      await page.keyboard.press("Space");
      expect(await page.locator("th[aria-sort] button").getAttribute("data-sort")).toBe("difficulty");

      // A download: Tab to the first export button, Enter.
      await tabTo(page, "button.download");
      const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
      expect(download.suggestedFilename()).toBeTruthy();
      expect(await noHorizontalScroll(page)).toBe(true);
      await page.screenshot({ path: join(built.dir, "phone.png"), fullPage: true });
      await expectClean(session);
    },
    TEST_TIMEOUT_MS,
  );
  it(
    "at 1280 px: every table fits its card, and each option's bar is labelled by its text",
    async () => {
      const { items, questions } = await apiFigures();
      const session = await open(DESKTOP);
      const { page } = session;
      await signIn(page, adminKey);
      await openDemoQuiz(page);
      const overflow = await tableOverflow(page);
      expect(Object.keys(overflow)).toEqual(expect.arrayContaining(["Item table", "Q1 options"]));
      for (const [region, hidden] of Object.entries(overflow)) expect(hidden, `${region} is cut off by ${hidden} px`).toBe(0);
      expect(await noHorizontalScroll(page)).toBe(true);

      for (const item of (items.items as any[]).filter((i) => Array.isArray(i.options))) {
        const question = questions.find((q) => q.id === item.question_id);
        const texts = new Map<string, string>(question.options.map((o: any) => [o.id, o.text]));
        const key = new Set<string>(question.correct_option_ids ?? [question.correct_option_id]);
        const article = page.locator(`article.question[data-question-id="${item.question_id}"]`);
        const labels = await article.locator("svg text.option-label").allTextContents();
        expect(labels).toEqual(
          (item.options as any[]).map((o) => {
            const text = texts.get(o.option_id)!.replace(/\s+/g, " ");
            const shown = text.length > 44 ? `${text.slice(0, 43)}…` : text;
            return key.has(o.option_id) ? `✓ ${shown}` : shown;
          }),
        );
        // Each table row is headed by the option's id and its text, beside its figures.
        const headings = await article.locator("tbody th[scope=row]").allTextContents();
        expect(headings).toEqual(
          (item.options as any[]).map((o) => `${o.option_id} ${texts.get(o.option_id)}${key.has(o.option_id) ? " ✓ key" : ""}`),
        );
      }
      await expectClean(session);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "at 390 px: each table scrolls inside its labelled region, with its row headings and the item's question in view",
    async () => {
      const session = await open(PHONE);
      const { page } = session;
      await signIn(page, adminKey);
      await openDemoQuiz(page);
      expect(await noHorizontalScroll(page)).toBe(true);
      const regions = page.locator("#report .table-scroll");
      for (let i = 0; i < (await regions.count()); i++) {
        const region = regions.nth(i);
        expect(await region.getAttribute("role")).toBe("region");
        expect(await region.getAttribute("aria-label")).toBeTruthy();
        expect(await region.getAttribute("tabindex")).toBe("0");
      }
      // The item table: the question beside the item's number, on screen before any scrolling.
      const itemRegion = page.locator('.table-scroll[aria-label="Item table"]');
      await itemRegion.scrollIntoViewIfNeeded();
      const box = await itemRegion.boundingBox();
      const question = await page.locator("#item-table tbody tr").first().locator('[data-column="question"]').boundingBox();
      expect(box && question).toBeTruthy();
      expect(question!.x).toBeGreaterThanOrEqual(box!.x);
      expect(question!.x + question!.width, "the question column ends inside the screen").toBeLessThanOrEqual(PHONE.width);

      // Scrolled to its end, a region still shows its row headings at its left edge (sticky).
      for (const label of ["Item table", "Q1 options"]) {
        const scrolled = page.locator(`.table-scroll[aria-label="${label}"]`);
        await scrolled.scrollIntoViewIfNeeded();
        await scrolled.evaluate("(d) => { d.scrollLeft = d.scrollWidth; }");
        const left = (await scrolled.boundingBox())!.x;
        const heading = (await scrolled.locator("tbody th[scope=row]").first().boundingBox())!;
        expect(Math.abs(heading.x - left), `${label}: row heading at ${heading.x}, region at ${left}`).toBeLessThanOrEqual(1);
      }
      await expectClean(session);
    },
    TEST_TIMEOUT_MS,
  );

  for (const [name, viewport, colorScheme] of [
    ["1280 px", DESKTOP, "light"],
    ["390 px", PHONE, "light"],
    ["1280 px in the dark scheme", DESKTOP, "dark"],
  ] as const) {
    it(
      `has no WCAG 2.2 A or AA violation that axe-core finds, at ${name}: signed out, the quiz list, a report`,
      async () => {
        const session = await open(viewport, { bypassCSP: true, colorScheme });
        const { page } = session;
        await page.goto(`${origin}/reports/`);
        expect(await axeViolations(page), "signed out").toEqual([]);
        await signIn(page, adminKey);
        expect(await axeViolations(page), "the quiz list").toEqual([]);
        await openDemoQuiz(page);
        await page.locator("#report .question").first().waitFor();
        expect(await axeViolations(page), "the report").toEqual([]);
        await expectClean(session);
      },
      TEST_TIMEOUT_MS,
    );
  }
});
