// What the player's browser tests share (test/e2e/player.test.ts, player-offline.test.ts,
// player-content.test.ts): the built bundle under Miniflare with an admin key and Chromium watched
// over (test/e2e/chromium.ts), contexts on the player, and the answers a learner gives to the demo
// quiz's nine questions (scripts/player-demo.ts), by keyboard alone or by pointer, with the
// responses the API must then hold.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { createLearner, createLearnerSession, createPlayerQuiz } from "../../scripts/player-demo";
import { apiClient } from "../../scripts/report-demo";
import { PLAYER_CONTENT_SECURITY_POLICY } from "../../src/lib/docs-csp";
import {
  type BuiltWorker,
  expectNoProblems,
  launchChromium,
  startBuiltWorker,
  stopBuiltWorker,
  type Watched,
  watchContext,
  watchPage,
} from "./chromium";

export { axeViolations, noHorizontalScroll } from "./chromium";

export const SETUP_TIMEOUT_MS = 240_000;
export const TEST_TIMEOUT_MS = 120_000;
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };
/** 1280 × 900 at 200 % zoom: the CSS pixels a page then has. */
export const ZOOMED = { width: 640, height: 450 };
export const RETURN_URL = "https://lms.example.org/course/7";

export type Call = ReturnType<typeof apiClient>;

export interface Harness extends BuiltWorker {
  browser: Browser;
  origin: string;
  admin: Call;
}

export async function startHarness(prefix: string): Promise<Harness> {
  const built = await startBuiltWorker(prefix, "player e2e");
  const browser = await launchChromium();
  return { ...built, browser, origin: built.worker.url, admin: apiClient(built.worker.url, built.adminKey) };
}

export async function stopHarness(harness: Harness | undefined) {
  await stopBuiltWorker(harness, harness?.browser);
}

/** A quiz of the nine questions, a learner and a learner session for them (returning to RETURN_URL). */
export async function newLearnerAttempt(harness: Harness, settings: Record<string, unknown> = {}) {
  const { quizId } = await createPlayerQuiz(harness.admin, settings);
  const userId = await createLearner(harness.admin);
  const session = await createLearnerSession(harness.admin, { user_id: userId, quiz_id: quizId, return_url: RETURN_URL });
  expect(session.token).toMatch(/^qz_lt_/);
  expect(session.playerUrl).toBe(`${harness.origin}/play/#session=${session.token}`);
  return { quizId, userId, ...session };
}

export interface Session extends Watched {
  context: BrowserContext;
  page: Page;
}

/** Words the page's live regions spoke, in order (window.__spoken), recorded by an init script. */
const RECORD_ANNOUNCEMENTS = `
  window.__spoken = [];
  new MutationObserver(() => {
    for (const region of document.querySelectorAll('[aria-live], [role="status"], [role="alert"]')) {
      const text = region.textContent.trim();
      if (text && region.__last !== text) window.__spoken.push(text);
      region.__last = text;
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

/** A browser context on the player; bypassCSP only for the accessibility checks, whose engine is added as a script. */
export async function openContext(
  harness: Harness,
  viewport = DESKTOP,
  { bypassCSP = false, reducedMotion = "no-preference" as "reduce" | "no-preference" } = {},
): Promise<Session> {
  const context = await harness.browser.newContext({
    viewport,
    deviceScaleFactor: 1,
    serviceWorkers: "block",
    bypassCSP,
    reducedMotion,
  });
  const session: Session = { context, page: undefined as unknown as Page, problems: [], requests: [], offOrigin: [] };
  await watchContext(context, harness.origin, session, { initScript: RECORD_ANNOUNCEMENTS });
  session.page = await newPage(session, harness);
  return session;
}

/** Another tab of the same context (same localStorage, its own sessionStorage), watched like the first. */
export async function newPage(session: Session, harness: Harness): Promise<Page> {
  return watchPage(await session.context.newPage(), harness.origin, session, {
    policy: PLAYER_CONTENT_SECURITY_POLICY,
    name: "player",
  });
}

/**
 * Nothing went wrong: no problem but the console's report of failed requests the test provoked
 * (Chromium logs each failed fetch as an error), nothing sent to another origin, no Referer on any
 * request, the token never in a URL and only ever in the Authorization header of /v1/ requests (but
 * a question's images, /v1/assets/…, which need no credential and are sent none).
 */
export async function expectClean(session: Session, token: string, expectedFailures: RegExp[] = []) {
  expectNoProblems(session, expectedFailures);
  expect(session.requests.length).toBeGreaterThan(0);
  for (const request of session.requests) {
    const url = new URL(request.url);
    expect(request.url, "the token is in no URL a server sees").not.toContain(token);
    expect(request.referer, `${request.url} carries no Referer`).toBeUndefined();
    if (url.pathname.startsWith("/v1/") && !url.pathname.startsWith("/v1/assets/"))
      expect(request.authorization, request.url).toBe(`Bearer ${token}`);
    else expect(request.authorization, `${request.url} carries no credential`).toBeUndefined();
  }
  await session.context.close();
}

/** The token is in this tab's sessionStorage only: never in localStorage, a cookie or the address bar. */
export async function expectTokenKeptInTab(page: Page, token: string) {
  expect(page.url()).not.toContain(token);
  expect(page.url()).not.toContain("session=");
  expect(await page.evaluate("sessionStorage.getItem('quiz-player:session')")).toBe(token);
  const local = (await page.evaluate("Object.entries(localStorage)")) as [string, string][];
  for (const [key, value] of local) expect(`${key}=${value}`).not.toContain(token);
  expect(await page.evaluate("document.cookie")).toBe("");
}

export const spoken = (page: Page) => page.evaluate("window.__spoken") as Promise<string[]>;

/** Presses Tab until the focused element satisfies the predicate (a JS expression over `el`); answers the presses. */
export async function tabTo(page: Page, predicate: string, { max = 80, shift = false } = {}): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(shift ? "Shift+Tab" : "Tab");
    if (await page.evaluate(`((el) => Boolean(el && (${predicate})))(document.activeElement)`)) return i;
  }
  throw new Error(`Tab never reached ${predicate}`);
}

const focusedLabel = `(el.labels && el.labels[0] ? el.labels[0].textContent : el.getAttribute("aria-label") || el.textContent).trim()`;
const labelIs = (text: string) => `${focusedLabel} === ${JSON.stringify(text)}`;

export async function focusedText(page: Page): Promise<string> {
  return (await page.evaluate(`((el) => ${focusedLabel})(document.activeElement)`)) as string;
}

/** What the learner gives to each question of the demo quiz, by text (the ids are the API's). */
export const TYPED = {
  single_choice: "Mercury",
  multiple_choice: ["Jupiter", "Saturn"],
  true_false: "True",
  short_text: "Olympus Mons",
  numeric: "8",
  ordering: ["Venus", "Earth", "Jupiter", "Neptune"],
  matching: { Titan: "Saturn", Europa: "Jupiter", Triton: "Neptune" },
  fill_in_blanks: ["8", "Earth"],
  essay: "The axis of the Earth is tilted, so each half leans towards the Sun for part of the year.",
} as const;
export type QuestionType = keyof typeof TYPED;
export const QUESTION_ORDER = Object.keys(TYPED) as QuestionType[];

/** Answers the question on screen with the keyboard alone: Tab, arrows, Space, Enter and typing. */
export async function answerByKeyboard(page: Page, type: QuestionType, text: string = TYPED.short_text) {
  const body = "el.closest('#question-body')";
  switch (type) {
    case "single_choice":
    case "true_false": {
      const target = type === "single_choice" ? TYPED.single_choice : TYPED.true_false;
      await tabTo(page, `${body} && el.type === "radio"`);
      // Arrows move the choice within the group; Space chooses the first one where Tab lands.
      for (let i = 0; i < 8 && (await focusedText(page)) !== target; i++) await page.keyboard.press("ArrowDown");
      if (!(await page.evaluate("document.activeElement.checked"))) await page.keyboard.press("Space");
      break;
    }
    case "multiple_choice":
      for (const label of TYPED.multiple_choice) {
        await tabTo(page, `${body} && el.type === "checkbox" && ${labelIs(label)}`);
        await page.keyboard.press("Space");
      }
      break;
    case "short_text":
    case "numeric":
    case "essay":
      await tabTo(page, `${body} && (el.tagName === "TEXTAREA" || el.type === "text")`);
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type(type === "numeric" ? TYPED.numeric : type === "essay" ? TYPED.essay : text);
      break;
    case "ordering":
      for (const [place, item] of TYPED.ordering.entries()) {
        const at = async () => (await page.locator("#question-body .ordering-item .item-text").allTextContents()).indexOf(item);
        if ((await at()) > place) {
          await tabTo(page, `${body} && el.getAttribute("aria-label") === ${JSON.stringify(`Move up: ${item}`)}`, { max: 120 });
          // Focus stays on the moved item's button: Enter again moves it again.
          while ((await at()) > place) await page.keyboard.press("Enter");
        }
      }
      // Already in order: the order as shown is the answer.
      if (await page.locator("#question-body button", { hasText: "Answer with this order" }).isVisible()) {
        await tabTo(page, `${body} && el.textContent === "Answer with this order"`);
        await page.keyboard.press("Enter");
      }
      // Back to the top of the question, so that the next Tab walk starts before its tools.
      await page.locator("#question-heading").focus();
      break;
    case "matching":
      for (const [prompt, choice] of Object.entries(TYPED.matching)) {
        await tabTo(page, `${body} && el.tagName === "SELECT" && ${labelIs(prompt)}`);
        // Arrows on a closed select change its choice (Chromium on Linux), one step at a time.
        for (let i = 0; i < 8; i++) {
          const chosen = await page.evaluate("document.activeElement.selectedOptions[0].textContent");
          if (chosen === choice) break;
          await page.keyboard.press("ArrowDown");
        }
      }
      break;
    case "fill_in_blanks":
      for (const [i, value] of TYPED.fill_in_blanks.entries()) {
        await tabTo(page, `${body} && el.getAttribute("aria-label") === ${JSON.stringify(`Blank ${i + 1} of 2`)}`);
        await page.keyboard.type(value);
      }
      break;
  }
}

/** Answers the question on screen by pointer (quicker; the keyboard walk is its own test). */
export async function answerByPointer(page: Page, type: QuestionType, text: string = TYPED.short_text) {
  const body = page.locator("#question-body");
  switch (type) {
    case "single_choice":
      return body.getByLabel(TYPED.single_choice, { exact: true }).check();
    case "true_false":
      return body.getByLabel(TYPED.true_false, { exact: true }).check();
    case "multiple_choice":
      for (const label of TYPED.multiple_choice) await body.getByLabel(label, { exact: true }).check();
      return;
    case "short_text":
      return body.getByLabel("Your answer").fill(text);
    case "numeric":
      return body.getByLabel("Your answer (a number)").fill(TYPED.numeric);
    case "essay":
      return body.getByLabel("Your answer").fill(TYPED.essay);
    case "ordering":
      for (const [place, item] of TYPED.ordering.entries()) {
        const at = async () => (await body.locator(".ordering-item .item-text").allTextContents()).indexOf(item);
        while ((await at()) > place) await body.getByRole("button", { name: `Move up: ${item}`, exact: true }).click();
      }
      if (await body.getByRole("button", { name: "Answer with this order" }).isVisible())
        await body.getByRole("button", { name: "Answer with this order" }).click();
      return;
    case "matching":
      for (const [prompt, choice] of Object.entries(TYPED.matching))
        await body.getByLabel(prompt, { exact: true }).selectOption({ label: choice });
      return;
    case "fill_in_blanks":
      for (const [i, value] of TYPED.fill_in_blanks.entries()) await body.getByLabel(`Blank ${i + 1} of 2`).fill(value);
      return;
  }
}

/** The question on screen's number (1-based), from its heading. */
export async function questionNumber(page: Page): Promise<number> {
  const heading = (await page.locator("#question-heading").textContent()) ?? "";
  return Number(/Question (\d+)/.exec(heading)?.[1]);
}

export async function goToQuestion(page: Page, n: number) {
  await page.locator(`#question-list li:nth-child(${n}) button`).click();
  await expect.poll(() => questionNumber(page)).toBe(n);
}

export const saveStatus = (page: Page) => page.locator("#save-status").textContent();

export async function waitSaved(page: Page) {
  await expect.poll(() => saveStatus(page), { timeout: 15_000 }).toBe("Saved");
}

/** Opens the player with the session's URL and starts (or resumes) the attempt: answers its submission id. */
export async function startAttempt(page: Page, playerUrl: string): Promise<string> {
  await page.goto(playerUrl);
  await page.locator("#start-attempt").waitFor();
  await page.locator("#start-attempt").click();
  await page.locator("#question-heading").waitFor();
  await expect.poll(() => questionNumber(page)).toBeGreaterThan(0);
  return (await page.evaluate("sessionStorage.getItem('quiz-player:submission')")) as string;
}

/** The responses the API must hold for the TYPED answers (short_text as given), by question id, from the quiz's definitions. */
export async function expectedResponses(admin: Call, quizId: string, shortText: string = TYPED.short_text) {
  const { json } = await admin(`/v1/quizzes/${quizId}/questions?limit=100`);
  const byType = new Map<string, any>(json.questions.map((q: any) => [q.type, q]));
  const idOf = (list: { id: string; text: string }[], text: string) => list.find((o) => o.text === text)!.id;
  const q = (type: QuestionType) => byType.get(type);
  const responses: Record<QuestionType, unknown> = {
    single_choice: idOf(q("single_choice").options, TYPED.single_choice),
    multiple_choice: TYPED.multiple_choice.map((t) => idOf(q("multiple_choice").options, t)).sort(),
    true_false: true,
    short_text: shortText,
    numeric: 8,
    ordering: TYPED.ordering.map((t) => idOf(q("ordering").items, t)),
    matching: Object.fromEntries(
      Object.entries(TYPED.matching).map(([p, c]) => [idOf(q("matching").prompts, p), idOf(q("matching").choices, c)]),
    ),
    fill_in_blanks: { minutes: TYPED.fill_in_blanks[0], planet: TYPED.fill_in_blanks[1] },
    essay: TYPED.essay,
  };
  return new Map(QUESTION_ORDER.map((type) => [q(type).id as string, { type, response: responses[type] }]));
}

/**
 * The graded answers (GET …/results with the admin key) are exactly `expected` (question id →
 * response; a multiple choice's ids compared as a set), every other question unanswered.
 */
export async function expectGradedAnswers(
  admin: Call,
  submissionId: string,
  expected: Map<string, { type: string; response: unknown }>,
) {
  const results = await admin(`/v1/submissions/${submissionId}/results`);
  expect(results.status, JSON.stringify(results.json)).toBe(200);
  const graded = new Map<string, unknown>(
    results.json.answers.map((a: any) => [
      a.question_id,
      a.type === "multiple_choice" && Array.isArray(a.response) ? [...a.response].sort() : a.response,
    ]),
  );
  for (const [questionId, answer] of graded)
    expect(answer, expected.get(questionId)?.type ?? questionId).toEqual(expected.get(questionId)?.response ?? null);
  expect(graded.size).toBe(9);
  return results.json;
}
