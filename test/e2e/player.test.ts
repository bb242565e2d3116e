// The player (/play/) in a real browser: Debian's Chromium driven by playwright-core against the
// bundle `npm run deploy` uploads, served with its static assets by Miniflare over a throw-away
// D1 and KV (test/e2e/player-browser.ts). Every learner comes through a learner session created
// with the API as a school's server would (POST /v1/learner-sessions), and opens its player_url.
// Every request to another origin is aborted and fails the test, as do a CSP violation, a console
// error, an uncaught exception, a Referer, and the token anywhere but the Authorization header of
// /v1/ requests. What the learner answered is read back through the API with an admin key.
// (The network dropped, reloads, two tabs and the deadline: player-offline.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAYER_QUIZ_DESCRIPTION, PLAYER_QUIZ_TITLE } from "../../scripts/player-demo";
import {
  answerByKeyboard,
  answerByPointer,
  axeViolations,
  DESKTOP,
  expectClean,
  expectedResponses,
  expectGradedAnswers,
  expectTokenKeptInTab,
  focusedText,
  goToQuestion,
  type Harness,
  newLearnerAttempt,
  noHorizontalScroll,
  openContext,
  PHONE,
  QUESTION_ORDER,
  questionNumber,
  RETURN_URL,
  SETUP_TIMEOUT_MS,
  saveStatus,
  spoken,
  startAttempt,
  startHarness,
  stopHarness,
  TEST_TIMEOUT_MS,
  tabTo,
  waitSaved,
  ZOOMED,
} from "./player-browser";

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness("player-e2e-");
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await stopHarness(harness);
});

describe("/play/ in a browser", () => {
  it(
    "takes the token from the fragment into this tab only and shows the start screen: title, description, time limit, attempts, window",
    async () => {
      const learner = await newLearnerAttempt(harness, { time_limit_seconds: 1800, max_attempts: 2 });
      const session = await openContext(harness);
      const { page } = session;
      const response = await page.goto(learner.playerUrl);
      expect(response?.status()).toBe(200);
      await page.locator("#quiz-title").waitFor();
      expect(await page.getAttribute("html", "lang")).toBe("en");
      expect(await page.locator("#quiz-title").textContent()).toBe(PLAYER_QUIZ_TITLE);
      expect(await page.locator("#quiz-description").innerText()).toBe(PLAYER_QUIZ_DESCRIPTION);
      expect(await page.locator("#fact-questions").textContent()).toBe("9");
      expect(await page.locator("#fact-time").textContent()).toBe("30 minutes");
      expect(await page.locator("#fact-attempts").textContent()).toBe("0 of 2");
      expect(await page.locator("#fact-window").textContent()).toBe("Always open");
      expect(await page.locator("#start-attempt").textContent()).toBe("Start the attempt");
      const back = page.getByRole("link", { name: "Return to your course" });
      expect(await back.getAttribute("href")).toBe(RETURN_URL);
      expect(await back.getAttribute("rel")).toBe("noreferrer");
      await expectTokenKeptInTab(page, learner.token);
      // The history entry holds no token either: back leads nowhere that has it.
      expect(await page.evaluate("history.length")).toBe(2);

      // A reload keeps the session (sessionStorage); another tab without the link has none.
      await page.reload();
      await page.locator("#quiz-title").waitFor();
      const other = await session.context.newPage();
      await other.goto(`${harness.origin}/play/`);
      await other.locator("#problem-heading").waitFor();
      expect(await other.locator("#problem-heading").textContent()).toBe("No quiz session");
      await other.close();
      await expectClean(session, learner.token);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "refuses a revoked session at once and says so",
    async () => {
      const learner = await newLearnerAttempt(harness);
      expect((await harness.admin(`/v1/learner-sessions/${learner.id}`, { method: "DELETE" })).status).toBe(204);
      const session = await openContext(harness);
      await session.page.goto(learner.playerUrl);
      await session.page.locator("#problem-heading").waitFor();
      expect(await session.page.locator("#problem-heading").textContent()).toBe("This quiz session has ended");
      await expectClean(session, learner.token, [/\/v1\/learner-sessions\/current$/]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "is answered by keyboard alone: every type, the question list, Flag for review, previous/next, the review naming unanswered and flagged questions, submit; the graded answers are those typed",
    async () => {
      const learner = await newLearnerAttempt(harness);
      const session = await openContext(harness, DESKTOP);
      const { page } = session;
      await page.goto(learner.playerUrl);
      await page.locator("#quiz-title").waitFor();
      await tabTo(page, "el.id === 'start-attempt'");
      await page.keyboard.press("Enter");
      await page.locator("#question-heading").waitFor();
      // The question's heading has focus: the walk goes on from it.
      await expect.poll(() => page.evaluate("document.activeElement.id")).toBe("question-heading");

      for (const [i, type] of QUESTION_ORDER.entries()) {
        expect(await questionNumber(page)).toBe(i + 1);
        if (type !== "essay") await answerByKeyboard(page, type);
        if (type === "true_false") {
          await tabTo(page, "el.id === 'flag'");
          await page.keyboard.press("Space");
          expect(await page.locator("#flag").getAttribute("aria-pressed")).toBe("true");
        }
        // Previous and back again once, on the second question.
        if (i === 1) {
          await tabTo(page, "el.id === 'previous'");
          await page.keyboard.press("Enter");
          await expect.poll(() => questionNumber(page)).toBe(1);
          expect(await page.locator("#question-body input:checked").count()).toBe(1);
          await tabTo(page, "el.id === 'next'");
          await page.keyboard.press("Enter");
          await expect.poll(() => questionNumber(page)).toBe(2);
        }
        await tabTo(page, "el.id === 'next'");
        await page.keyboard.press("Enter");
      }
      // After the last question, Next is "Review and submit".
      await page.locator("#review-heading").waitFor();
      expect(await page.locator("#review-unanswered").textContent()).toBe("1 question is not answered: 9.");
      expect(await page.locator("#review-flagged").textContent()).toBe("1 question is flagged for review: 3.");

      // Back to question 9 from the review's list, answer it, and through the question list to the review again.
      await tabTo(page, "el.closest('#review-list') && el.textContent === 'Question 9 of 9'");
      await page.keyboard.press("Enter");
      await expect.poll(() => questionNumber(page)).toBe(9);
      await answerByKeyboard(page, "essay");
      await tabTo(page, "el.closest('#question-list') && el.textContent.startsWith('Question 3,')", { shift: true });
      expect(await focusedText(page)).toBe("Question 3, answered, flagged3✓⚑");
      await tabTo(page, "el.id === 'open-review'");
      await page.keyboard.press("Enter");
      await page.locator("#review-heading").waitFor();
      expect(await page.locator("#review-unanswered").textContent()).toBe("Every question is answered.");
      await waitSaved(page);

      await tabTo(page, "el.id === 'submit'");
      await page.keyboard.press("Enter");
      await page.locator("#result-score").waitFor();
      await expect.poll(() => page.evaluate("document.activeElement.id")).toBe("result-heading");
      // Everything right but the essay, which waits for its review (4 of 15 points).
      expect(await page.locator("#result-score").textContent()).toBe("73.33%");
      expect(await page.locator("#result-summary").textContent()).toContain("provisional");
      expect(await page.locator(".result-question").count()).toBe(9);
      expect(await page.locator(".result-question.correct").count()).toBe(8);
      expect(await page.getByRole("link", { name: "Return to your course" }).getAttribute("href")).toBe(RETURN_URL);

      const submissionId = (await page.evaluate("sessionStorage.getItem('quiz-player:submission')")) as string;
      await expectGradedAnswers(harness.admin, submissionId, await expectedResponses(harness.admin, learner.quizId));
      // Nothing of the attempt is left on the device once it is graded.
      expect(await page.evaluate("localStorage.length")).toBe(0);
      await expectClean(session, learner.token);
    },
    TEST_TIMEOUT_MS,
  );

  for (const [name, viewport] of [
    ["1280 px", DESKTOP],
    ["390 px", PHONE],
  ] as const) {
    it(
      `has no WCAG 2.2 A or AA violation that axe-core finds at ${name}: the start screen, a question of each of the nine types, the review, the result`,
      async () => {
        const learner = await newLearnerAttempt(harness);
        const session = await openContext(harness, viewport, { bypassCSP: true });
        const { page } = session;
        await page.goto(learner.playerUrl);
        await page.locator("#quiz-title").waitFor();
        expect(await axeViolations(page), "the start screen").toEqual([]);
        expect(await noHorizontalScroll(page), "the start screen").toBe(true);
        await page.locator("#start-attempt").click();
        await page.locator("#question-heading").waitFor();
        for (const [i, type] of QUESTION_ORDER.entries()) {
          await expect.poll(() => questionNumber(page)).toBe(i + 1);
          expect(await axeViolations(page), type).toEqual([]);
          expect(await noHorizontalScroll(page), type).toBe(true);
          if (i !== 3) await answerByPointer(page, type);
          if (i === 4) await page.locator("#flag").click();
          // Answered and flagged states are checked too, on the last question.
          if (i === 8) expect(await axeViolations(page), `${type}, answered`).toEqual([]);
          await page.locator("#next").click();
        }
        await page.locator("#review-heading").waitFor();
        expect(await page.locator("#review-unanswered").textContent()).toBe("1 question is not answered: 4.");
        expect(await axeViolations(page), "the review").toEqual([]);
        expect(await noHorizontalScroll(page), "the review").toBe(true);
        await waitSaved(page);
        await page.locator("#submit").click();
        await page.locator("#result-score").waitFor();
        expect(await axeViolations(page), "the result").toEqual([]);
        expect(await noHorizontalScroll(page), "the result").toBe(true);
        await expectClean(session, learner.token);
      },
      TEST_TIMEOUT_MS,
    );
  }

  it(
    "at 390 px and at 200 % zoom: nothing scrolls sideways, every control is at least 24 × 24 px, and no focused control is hidden under the bar",
    async () => {
      const learner = await newLearnerAttempt(harness);
      for (const viewport of [PHONE, ZOOMED]) {
        const session = await openContext(harness, viewport, { reducedMotion: "reduce" });
        const { page } = session;
        await startAttempt(page, learner.playerUrl);
        const sticky = (await page.evaluate("getComputedStyle(document.getElementById('bar')).position")) as string;
        // Sticky where the screen is tall enough; at 200 % zoom on a laptop (450 px tall) the bar scrolls away.
        expect(sticky).toBe(viewport === PHONE ? "sticky" : "static");
        for (const n of [1, 6, 7, 8]) {
          await goToQuestion(page, n);
          expect(await noHorizontalScroll(page), `question ${n}`).toBe(true);
          // Tab through the whole page: each focused control is scrolled into view, clear of the bar, and big enough.
          await page.locator("#question-heading").focus();
          // Forwards, then backwards (where a sticky bar would cover what scrolls in from above).
          for (let i = 0; i < 60; i++) {
            await page.keyboard.press(i < 30 ? "Tab" : "Shift+Tab");
            const seen = (await page.evaluate(`(() => {
              const el = document.activeElement;
              if (!el || el === document.body) return null;
              const box = el.getBoundingClientRect();
              const bar = document.getElementById("bar").getBoundingClientRect();
              const x = box.left + Math.min(box.width / 2, 10), y = box.top + Math.min(box.height / 2, 10);
              const top = document.elementFromPoint(x, y);
              const label = el.labels && el.labels[0];
              const target = label && (el.type === "radio" || el.type === "checkbox") ? label.closest(".choice").getBoundingClientRect() : box;
              return { id: el.id || el.getAttribute("aria-label") || el.textContent.slice(0, 30), onTop: top === el || el.contains(top) || (label && label.contains(top)),
                inView: box.top >= -1 && box.bottom <= innerHeight + 1, top: Math.round(box.top), bottom: Math.round(box.bottom), underBar: getComputedStyle(document.getElementById("bar")).position === "sticky" && box.top < bar.bottom,
                width: target.width, height: target.height, outline: getComputedStyle(el).outlineStyle };
            })()`)) as null | {
              id: string;
              onTop: boolean;
              inView: boolean;
              underBar: boolean;
              width: number;
              height: number;
              outline: string;
            };
            if (!seen) continue;
            expect(
              seen.onTop && seen.inView && !seen.underBar,
              `question ${n} at ${viewport.width}: ${JSON.stringify(seen)} is visible when focused`,
            ).toBe(true);
            expect(seen.width >= 24 && seen.height >= 24, `question ${n}: ${seen.id} is ${seen.width}×${seen.height}`).toBe(true);
            expect(seen.outline, `question ${n}: ${seen.id} shows its focus`).not.toBe("none");
          }
        }
        await expectClean(session, learner.token);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "moves an ordering's items with buttons and says where each went; a matching uses selects; nothing is draggable",
    async () => {
      const learner = await newLearnerAttempt(harness);
      const session = await openContext(harness);
      const { page } = session;
      await startAttempt(page, learner.playerUrl);
      await goToQuestion(page, 6);
      const items = () => page.locator("#question-body .ordering-item .item-text").allTextContents();
      const before = await items();
      const second = before[1]!;
      await page.getByRole("button", { name: `Move up: ${second}`, exact: true }).click();
      expect(await items()).toEqual([second, before[0], ...before.slice(2)]);
      // Focus stays with the moved item: at the top, on its Move down button.
      expect(await focusedText(page)).toBe(`Move down: ${second}`);
      await expect.poll(async () => (await spoken(page)).at(-1)).toBe(`${second}: position 1 of 4.`);
      expect(await page.locator("#question-body [draggable='true']").count()).toBe(0);
      await goToQuestion(page, 7);
      expect(await page.locator("#question-body select").count()).toBe(3);
      expect(await page.locator("[draggable='true']").count()).toBe(0);
      await waitSaved(page);
      expect(await saveStatus(page)).toBe("Saved");
      await expectClean(session, learner.token);
    },
    TEST_TIMEOUT_MS,
  );
});
