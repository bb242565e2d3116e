// Nothing typed in the player is lost (CONTRACT §17), in a real browser against the built bundle
// under Miniflare (test/e2e/player-browser.ts): with the network dropped and restored, a reload in
// the middle, the tab closed and the player opened again, two tabs on the same submission, and the
// deadline passing. Each ends with the answers graded (read back through the API with an admin
// key) equal to the last ones the learner typed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerByPointer,
  expectClean,
  expectedResponses,
  expectGradedAnswers,
  goToQuestion,
  type Harness,
  newLearnerAttempt,
  newPage,
  openContext,
  QUESTION_ORDER,
  questionNumber,
  SETUP_TIMEOUT_MS,
  saveStatus,
  spoken,
  startAttempt,
  startHarness,
  stopHarness,
  TEST_TIMEOUT_MS,
  TYPED,
  waitSaved,
} from "./player-browser";

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness("player-offline-e2e-");
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await stopHarness(harness);
});

/** The answers the server holds now (GET /v1/submissions/{id} with the admin key): question id → { response, seq }. */
async function serverAnswers(submissionId: string) {
  const { status, json } = await harness.admin(`/v1/submissions/${submissionId}`);
  expect(status).toBe(200);
  return new Map<string, { response: unknown; seq: number }>(json.answers.map((a: any) => [a.question_id, a]));
}

/** The device's record of the attempt (localStorage), as the page wrote it. */
const deviceRecord = async (page: import("playwright-core").Page, submissionId: string) =>
  JSON.parse(((await page.evaluate(`localStorage.getItem("quiz-player:attempt:${submissionId}")`)) as string) ?? "null");

/** Answers every question by pointer, question 4 (short text) with `shortText`. */
async function answerAll(page: import("playwright-core").Page, shortText: string = TYPED.short_text) {
  for (const [i, type] of QUESTION_ORDER.entries()) {
    await goToQuestion(page, i + 1);
    await answerByPointer(page, type, shortText);
  }
}

/** Submits from the review (after the page says Saved) and waits for the result. */
async function submit(page: import("playwright-core").Page) {
  await page.locator("#open-review").click();
  await page.locator("#review-heading").waitFor();
  await waitSaved(page);
  await page.locator("#submit").click();
  await page.locator("#result-score").waitFor();
}

const grade = async (admin: Harness["admin"], id: string) =>
  (await admin(`/v1/submissions/${id}/grade`, { method: "POST" })).status;

describe("/play/ keeps every answer", () => {
  it(
    "offline: answers wait on the device (never with the token), the status counts them, and they are sent in order when the network returns",
    async () => {
      const learner = await newLearnerAttempt(harness, { show_correct_answers: "after_last_attempt", max_attempts: 3 });
      const session = await openContext(harness);
      const { page, context } = session;
      const submissionId = await startAttempt(page, learner.playerUrl);
      await answerByPointer(page, "single_choice");
      await waitSaved(page);

      await context.setOffline(true);
      await goToQuestion(page, 2);
      await answerByPointer(page, "multiple_choice");
      await goToQuestion(page, 4);
      await answerByPointer(page, "short_text", "Olympus");
      await answerByPointer(page, "short_text", "Olympus Mons");
      await goToQuestion(page, 9);
      await answerByPointer(page, "essay");
      await expect.poll(() => saveStatus(page), { timeout: 15_000 }).toBe("Offline — 3 answers waiting");
      await expect.poll(async () => (await spoken(page)).some((s) => s.startsWith("You are offline."))).toBe(true);
      // On the device, under the submission's id: the three answers, not the token.
      const record = await deviceRecord(page, submissionId);
      expect(Object.values(record.answers).filter((a: any) => !a.saved)).toHaveLength(3);
      expect(JSON.stringify(record)).not.toContain(learner.token);
      // The server has the first answer only.
      expect((await serverAnswers(submissionId)).size).toBe(1);

      await context.setOffline(false);
      await waitSaved(page);
      const stored = await serverAnswers(submissionId);
      expect(stored.size).toBe(4);
      const waiting = [...stored.values()].map((a) => a.seq);
      expect(waiting.every((seq) => Number.isSafeInteger(seq) && seq > 0)).toBe(true);

      const expected = await expectedResponses(harness.admin, learner.quizId, "Olympus Mons");
      const answered = new Map(
        [...expected].filter(([, a]) => ["single_choice", "multiple_choice", "short_text", "essay"].includes(a.type)),
      );
      await submit(page);
      // Results of each question are not shown yet (after the last attempt), and the page says so.
      expect(await page.locator("#reveal-note").textContent()).toBe(
        "Each question's result is shown once you have used your last attempt.",
      );
      expect(await page.locator(".result-question").count()).toBe(0);
      await expectGradedAnswers(harness.admin, submissionId, answered);
      await expectClean(session, learner.token, [/\/v1\/submissions\/sub_\w+\/answers\//]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "leaving right after typing sends the answer on pagehide; a reload in the middle shows every answer again, at the same question",
    async () => {
      const learner = await newLearnerAttempt(harness);
      const session = await openContext(harness);
      const { page } = session;
      const submissionId = await startAttempt(page, learner.playerUrl);
      const expected = await expectedResponses(harness.admin, learner.quizId);
      const shortTextId = [...expected].find(([, a]) => a.type === "short_text")![0];
      await answerAll(page);
      await waitSaved(page);
      // Typed and at once gone, inside the pause before the usual save: the page's leaving sends it (keepalive).
      await goToQuestion(page, 4);
      await page.locator("#question-body input").fill("Olympus Mons, on Mars");
      await page.goto("about:blank");
      await expect
        .poll(async () => (await serverAnswers(submissionId)).get(shortTextId)?.response, { timeout: 5_000 })
        .toBe("Olympus Mons, on Mars");
      // Back in the same tab: straight to the attempt, at the same question.
      await page.goto(`${harness.origin}/play/`);
      await page.locator("#question-heading").waitFor();
      await expect.poll(() => questionNumber(page)).toBe(4);
      expect(await page.locator("#question-body input").inputValue()).toBe("Olympus Mons, on Mars");

      // Typed and at once reloaded: shown again after the reload, and saved.
      await page.locator("#question-body input").fill("Olympus Mons");
      await page.reload();
      await page.locator("#question-heading").waitFor();
      await expect.poll(() => questionNumber(page)).toBe(4);
      expect(await page.locator("#question-body input").inputValue()).toBe("Olympus Mons");
      await waitSaved(page);
      // Every other answer is shown again too.
      await goToQuestion(page, 6);
      expect(await page.locator("#question-body .ordering-item .item-text").allTextContents()).toEqual([...TYPED.ordering]);
      await goToQuestion(page, 7);
      expect(
        await page.locator("#question-body select").evaluateAll((s) => s.map((x) => (x as unknown as { value: string }).value)),
      ).not.toContain("");
      await goToQuestion(page, 8);
      expect(
        await page
          .locator("#question-body input.blank")
          .evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value)),
      ).toEqual([...TYPED.fill_in_blanks]);
      await submit(page);
      await expectGradedAnswers(harness.admin, submissionId, expected);
      await expectClean(session, learner.token);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the tab crashed while offline, the player opened again from its link: the device's newer answer wins over the server's and is sent",
    async () => {
      const learner = await newLearnerAttempt(harness);
      const session = await openContext(harness);
      const { page, context } = session;
      const submissionId = await startAttempt(page, learner.playerUrl);
      await answerAll(page, "Olympus");
      await waitSaved(page);
      await context.setOffline(true);
      await goToQuestion(page, 4);
      await answerByPointer(page, "short_text", "Olympus Mons");
      await expect.poll(() => saveStatus(page)).toBe("Offline — 1 answer waiting");
      // The tab crashes: no pagehide, no last request; what was typed is only on the device.
      const devtools = await context.newCDPSession(page);
      const crashed = page.waitForEvent("crash", { timeout: 10_000 });
      devtools.send("Page.crash").catch(() => {});
      await crashed;
      await page.close();
      const expected = await expectedResponses(harness.admin, learner.quizId, "Olympus Mons");
      const shortTextId = [...expected].find(([, a]) => a.type === "short_text")![0];
      expect((await serverAnswers(submissionId)).get(shortTextId)?.response).toBe("Olympus");

      await context.setOffline(false);
      const reopened = await newPage(session, harness);
      await reopened.goto(learner.playerUrl);
      await reopened.locator("#start-attempt").waitFor();
      expect(await reopened.locator("#start-attempt").textContent()).toBe("Resume the attempt");
      await reopened.locator("#start-attempt").click();
      await reopened.locator("#question-heading").waitFor();
      await goToQuestion(reopened, 4);
      expect(await reopened.locator("#question-body input").inputValue()).toBe("Olympus Mons");
      await waitSaved(reopened);
      await submit(reopened);
      await expectGradedAnswers(harness.admin, submissionId, expected);
      await expectClean(session, learner.token, [/\/v1\/submissions\/sub_\w+\/answers\//]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "two tabs on one submission: each shows the other's later edit, and the grade has the last edit of each question whichever tab made it",
    async () => {
      const learner = await newLearnerAttempt(harness);
      const session = await openContext(harness);
      const first = session.page;
      const submissionId = await startAttempt(first, learner.playerUrl);
      const second = await newPage(session, harness);
      await second.goto(learner.playerUrl);
      await second.locator("#start-attempt").click();
      await second.locator("#question-heading").waitFor();
      expect(await second.evaluate("sessionStorage.getItem('quiz-player:submission')")).toBe(submissionId);

      // A learner types in the tab in front (a tab behind is hidden: its timers slowed, no frames drawn).
      await first.bringToFront();
      await answerAll(first, "Olympus");
      await second.bringToFront();
      await goToQuestion(second, 4);
      // The second tab shows the first's answer, then overwrites it; the first tab then shows that.
      await expect.poll(() => second.locator("#question-body input").inputValue()).toBe("Olympus");
      await answerByPointer(second, "short_text", "Olympus Mons");
      await first.bringToFront();
      await goToQuestion(first, 4);
      await expect.poll(() => first.locator("#question-body input").inputValue()).toBe("Olympus Mons");
      // Alternating edits of one question, each tab in turn: the last one counts.
      await goToQuestion(second, 5);
      await goToQuestion(first, 5);
      for (const [i, value] of ["1", "2", "3", "4", "8"].entries()) {
        const tab = i % 2 === 0 ? second : first;
        await tab.bringToFront();
        await tab.locator("#question-body input").fill(value);
      }
      await waitSaved(first);
      await waitSaved(second);
      await expect.poll(() => second.locator("#question-body input").inputValue()).toBe("8");
      await first.bringToFront();
      await submit(first);
      // The other tab learns the attempt is closed at its next save, and shows the result too.
      await second.bringToFront();
      await second.locator("#question-body input").fill("9");
      await second.locator("#result-score").waitFor({ timeout: 30_000 });
      await expectGradedAnswers(
        harness.admin,
        submissionId,
        await expectedResponses(harness.admin, learner.quizId, "Olympus Mons"),
      );
      expect(await grade(harness.admin, submissionId)).toBe(200);
      await expectClean(session, learner.token, [/\/v1\/submissions\/sub_\w+\/answers\//]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the timer counts to deadline_at by the server's clock, not the device's, and says politely when 5 minutes are left",
    async () => {
      const until = new Date(Date.now() + 308_000).toISOString();
      const learner = await newLearnerAttempt(harness, { available_until: until });
      const session = await openContext(harness);
      const { page } = session;
      // This device's clock is an hour slow: the page goes by the server's (its answers' Date headers).
      await session.context.clock.install({ time: new Date(Date.now() - 3_600_000) });
      await startAttempt(page, learner.playerUrl);
      expect(await page.evaluate("Date.now()")).toBeLessThan(Date.now() - 3_500_000);
      expect(await page.locator("#timer").isVisible()).toBe(true);
      expect(await page.locator("#timer-value").textContent()).toMatch(/^5:0\d$/);
      await expect.poll(async () => (await spoken(page)).includes("5 minutes left."), { timeout: 20_000 }).toBe(true);
      expect(await page.locator("#announcer").getAttribute("aria-live")).toBe("polite");
      await expectClean(session, learner.token);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "at the deadline: 1 minute announced, then input stops, the page says it is being graded, and shows the cron's grade of the last answers",
    async () => {
      const deadline = Date.now() + 68_000;
      const learner = await newLearnerAttempt(harness, {
        available_until: new Date(deadline).toISOString(),
        show_correct_answers: "never",
      });
      const session = await openContext(harness);
      const { page } = session;
      const submissionId = await startAttempt(page, learner.playerUrl);
      await answerAll(page, "Olympus");
      await goToQuestion(page, 4);
      await answerByPointer(page, "short_text", "Olympus Mons");
      await waitSaved(page);
      await expect.poll(async () => (await spoken(page)).includes("1 minute left."), { timeout: 30_000 }).toBe(true);

      await page.locator("#grading-heading").waitFor({ timeout: Math.max(0, deadline - Date.now()) + 10_000 });
      expect(await page.locator("#grading-heading").textContent()).toBe("Time is up");
      expect(await page.locator("#grading-text").textContent()).toMatch(/being graded/);
      expect(await page.locator("#question-body input:not([disabled])").count()).toBe(0);
      expect(await page.locator("#attempt").isHidden()).toBe(true);
      // The API refuses a write now, as the page no longer offers one.
      const late = await harness.admin(
        `/v1/submissions/${submissionId}/answers/${[...(await serverAnswers(submissionId)).keys()][0]}`,
        {
          method: "PUT",
          body: { response: null, seq: Date.now() + 1_000_000 },
        },
      );
      expect(late.status).toBe(409);
      // The cron (every minute when deployed) grades it; the page, asking every few seconds, shows the result.
      const worker = await harness.worker.mf.getWorker();
      await worker.scheduled({ cron: "* * * * *", scheduledTime: new Date() });
      await page.locator("#result-score").waitFor({ timeout: 30_000 });
      expect(await page.locator("#reveal-note").textContent()).toBe("This quiz does not show each question's result.");
      const results = await expectGradedAnswers(
        harness.admin,
        submissionId,
        await expectedResponses(harness.admin, learner.quizId, "Olympus Mons"),
      );
      expect(results.graded_by).toBe("deadline");
      await expectClean(session, learner.token);
    },
    TEST_TIMEOUT_MS,
  );
});
