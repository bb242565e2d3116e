// The player (/play/) showing formatted questions (content_format "html", CONTRACT §19) as
// written, in Chromium under its own CSP: an equation's TeX as MathML, chemistry with sub and sup,
// a picture uploaded through POST /v1/assets (real PNG bytes) with its alt, a table holding a
// fill-in-the-blanks text's inputs, a link that opens safely, and markup the service removed on
// write (a script, handlers, a javascript: link) leaving nothing that runs. Built as elements, never
// as escaped text; answered by keyboard alone; axe-core finds nothing at 1280 and 390 px; no console
// error, CSP violation or request to another origin (the harness of test/e2e/player-browser.ts).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assetUploader,
  CONTENT_IMAGE_ALT,
  createContentQuiz,
  createLearner,
  createLearnerSession,
} from "../../scripts/player-demo";
import { png } from "../support/images";
import {
  axeViolations,
  DESKTOP,
  expectClean,
  focusedText,
  goToQuestion,
  type Harness,
  noHorizontalScroll,
  openContext,
  PHONE,
  questionNumber,
  RETURN_URL,
  SETUP_TIMEOUT_MS,
  startHarness,
  stopHarness,
  TEST_TIMEOUT_MS,
  tabTo,
  waitSaved,
} from "./player-browser";

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness("player-content-e2e-");
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await stopHarness(harness);
});

async function newContentAttempt() {
  const { quizId, questionIds, asset } = await createContentQuiz(
    harness.admin,
    assetUploader(harness.origin, harness.adminKey),
    png(6, 2, 0x2a),
  );
  const userId = await createLearner(harness.admin);
  const session = await createLearnerSession(harness.admin, { user_id: userId, quiz_id: quizId, return_url: RETURN_URL });
  return { quizId, questionIds, asset, ...session };
}

const body = "#question-body";
/** Nothing of the removed markup ran (the fragments would set window.__ran). */
const ran = (page: Page) => page.evaluate("window.__ran ?? null");

describe("/play/ with formatted questions", () => {
  it(
    "shows each html text as elements (MathML, sub/sup, the picture with its alt, a table, a safe link), is answered by keyboard alone, and the result shows the formatted feedback and explanation",
    async () => {
      const learner = await newContentAttempt();
      const stored = await harness.admin(`/v1/quizzes/${learner.quizId}/questions?limit=100`);
      const byType = new Map<string, any>(stored.json.questions.map((q: any) => [q.type, q]));
      // What the player is given was sanitized on write: the script, handlers, style and javascript: link are gone.
      const hostile = `${byType.get("true_false").prompt} ${byType
        .get("matching")
        .prompts.map((p: any) => p.text)
        .join(" ")}`;
      expect(hostile).not.toMatch(/script|onclick|onerror|javascript:|style=/);
      expect(byType.get("numeric").prompt).toContain('<math display="block"><semantics>');

      const session = await openContext(harness, DESKTOP);
      const { page } = session;
      await page.goto(learner.playerUrl);
      await page.locator("#quiz-title").waitFor();
      await tabTo(page, "el.id === 'start-attempt'");
      await page.keyboard.press("Enter");
      await page.locator("#question-heading").waitFor();
      await expect.poll(() => page.evaluate("document.activeElement.id")).toBe("question-heading");

      // 1. The equation: MathML elements from the TeX, laid out by Chromium (not the TeX source as text).
      expect(await questionNumber(page)).toBe(1);
      const prompt = page.locator(`${body} .prompt`);
      expect(await prompt.locator("p").count()).toBe(3);
      expect(await prompt.locator("strong").textContent()).toBe("larger");
      expect(await prompt.locator("math").count()).toBe(2);
      expect(await prompt.locator('math[display="block"] msup').count()).toBe(1);
      expect(await prompt.locator("annotation").first().textContent()).toBe("x^2 - 5x + 6 = 0");
      const visible = (await prompt.innerText()).replace(/\s+/g, " ");
      expect(visible).not.toMatch(/<|\\\[|\\\(|\^/);
      // Rendered as mathematics: the superscript sits above the base line, smaller.
      const box = (await page.evaluate(`(() => {
        const sup = document.querySelector("${body} .prompt msup");
        const [base, exponent] = sup.children;
        const b = base.getBoundingClientRect(), e = exponent.getBoundingClientRect();
        const size = (el) => parseFloat(getComputedStyle(el).fontSize);
        return { raised: e.bottom < b.bottom, smaller: size(exponent) < size(base), display: getComputedStyle(sup.closest('math')).display };
      })()`)) as { raised: boolean; smaller: boolean; display: string };
      expect(box).toEqual({ raised: true, smaller: true, display: "block math" });
      await tabTo(page, `el.closest('${body}') && el.type === "text"`);
      await page.keyboard.type("3");
      await tabTo(page, "el.id === 'next'");
      await page.keyboard.press("Enter");

      // 2. Chemistry in the options: sub and sup inside the labels, which still name the radios.
      await expect.poll(() => questionNumber(page)).toBe(2);
      expect(await page.locator(`${body} label sub`).count()).toBe(5);
      expect(await page.locator(`${body} label sup`).textContent()).toBe("−");
      expect(await page.locator(`${body}`).getByRole("radio", { name: "H2SO4", exact: true }).count()).toBe(1);
      await tabTo(page, `el.closest('${body}') && el.type === "radio"`);
      for (let i = 0; i < 4 && (await focusedText(page)) !== "H2SO4"; i++) await page.keyboard.press("ArrowDown");
      if (!(await page.evaluate("document.activeElement.checked"))) await page.keyboard.press("Space");
      expect(await page.locator(`${body} input:checked`).count()).toBe(1);
      await tabTo(page, "el.id === 'next'");
      await page.keyboard.press("Enter");

      // 3. The picture: an img of the asset, loaded (same origin, img-src 'self'), with its alt.
      await expect.poll(() => questionNumber(page)).toBe(3);
      const img = page.locator(`${body} figure img`);
      expect(await img.getAttribute("alt")).toBe(CONTENT_IMAGE_ALT);
      expect(await img.getAttribute("src")).toBe(learner.asset.url);
      await expect
        .poll(() =>
          img.evaluate(
            (el) => (el as { complete: boolean; naturalWidth: number }).complete && (el as { naturalWidth: number }).naturalWidth,
          ),
        )
        .toBe(6);
      expect(await page.locator(`${body} figcaption`).textContent()).toBe("A picture of stripes.");
      expect(await page.locator(`${body}`).getByRole("img", { name: CONTENT_IMAGE_ALT }).count()).toBe(1);
      for (const name of ["Red", "Orange"]) {
        await tabTo(
          page,
          `el.closest('${body}') && el.type === "checkbox" && el.labels[0].textContent === ${JSON.stringify(name)}`,
        );
        await page.keyboard.press("Space");
      }
      expect(await page.locator(`${body} label em`).count()).toBe(3);
      await tabTo(page, "el.id === 'next'");
      await page.keyboard.press("Enter");

      // 4. The table, its blanks' inputs in place of the markers: one in a cell, one in a paragraph.
      await expect.poll(() => questionNumber(page)).toBe(4);
      expect(await page.locator(`${body} .blanks-text table caption`).textContent()).toBe("Boiling points");
      expect(await page.locator(`${body} .blanks-text th[scope="col"]`).count()).toBe(3);
      expect(await page.locator(`${body} td input.blank[data-blank-id="water"]`).getAttribute("aria-label")).toBe("Blank 1 of 2");
      expect(await page.locator(`${body} p input.blank[data-blank-id="ethanol"]`).getAttribute("aria-label")).toBe(
        "Blank 2 of 2",
      );
      expect(await page.locator(`${body} .blanks-text`).textContent()).not.toContain("{{");
      for (const [i, value] of ["100", "78"].entries()) {
        await tabTo(page, `el.closest('${body}') && el.getAttribute("aria-label") === "Blank ${i + 1} of 2"`);
        await page.keyboard.type(value);
      }
      await tabTo(page, "el.id === 'next'");
      await page.keyboard.press("Enter");

      // 5. The link opens in a new tab without an opener or a Referer; the removed markup left nothing.
      await expect.poll(() => questionNumber(page)).toBe(5);
      const link = page.locator(`${body} .prompt a`);
      expect(await link.count()).toBe(1);
      expect(await link.getAttribute("href")).toBe("https://iupac.org/what-we-do/periodic-table-of-elements/");
      expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
      expect(await link.getAttribute("target")).toBe("_blank");
      expect(await page.locator(`${body} .prompt code`).textContent()).toBe("Au");
      expect(await page.locator(`${body} script, ${body} [onclick], ${body} [style]`).count()).toBe(0);
      expect(await page.locator(`${body} .prompt`).innerText()).toContain("Nothing runs here.");
      await page.locator(`${body} .prompt p`).last().click();
      expect(await ran(page)).toBeNull();
      await tabTo(page, `el.closest('${body}') && el.type === "radio"`);
      await page.keyboard.press("Space");
      await tabTo(page, "el.id === 'next'");
      await page.keyboard.press("Enter");

      // 6. Matching: formatted prompts label the selects; a select's options hold the choices' text only.
      await expect.poll(() => questionNumber(page)).toBe(6);
      expect(await page.locator(`${body} .match label sub`).count()).toBe(2);
      const names = { H2O: "water", CO2: "carbon dioxide", NaCl: "sodium chloride" };
      for (const [formula, name] of Object.entries(names)) {
        const select = page.locator(`${body}`).getByRole("combobox", { name: formula, exact: true });
        expect(await select.count(), formula).toBe(1);
        expect(await select.locator("option").allTextContents()).toEqual(
          expect.arrayContaining(["water", "carbon dioxide", "sodium chloride"]),
        );
        await tabTo(
          page,
          `el.closest('${body}') && el.tagName === "SELECT" && el.labels[0].textContent === ${JSON.stringify(formula)}`,
        );
        for (let i = 0; i < 5; i++) {
          if ((await page.evaluate("document.activeElement.selectedOptions[0].textContent")) === name) break;
          await page.keyboard.press("ArrowDown");
        }
      }
      // The removed img (its src no asset) is gone, and its handler never ran.
      expect(await page.locator(`${body} img`).count()).toBe(0);
      await waitSaved(page);
      await tabTo(page, "el.id === 'next'");
      await page.keyboard.press("Enter");
      await page.locator("#review-heading").waitFor();
      expect(await page.locator("#review-unanswered").textContent()).toBe("Every question is answered.");
      await tabTo(page, "el.id === 'submit'");
      await page.keyboard.press("Enter");
      await page.locator("#result-score").waitFor();
      expect(await page.locator("#result-score").textContent()).toBe("100%");

      // The result: prompts, feedback and explanations formatted too; the answer lines in plain text.
      const first = page.locator(".result-question").first();
      expect(await first.locator(".prompt math").count()).toBe(2);
      expect(await first.locator(".feedback em").textContent()).toBe("x");
      expect(await first.locator(".explanation mfrac").count()).toBe(1);
      const second = page.locator(".result-question").nth(1);
      expect(await second.locator(".feedback sub").count()).toBe(2);
      expect(await second.locator(".answer-lines dd").first().textContent()).toBe("H2SO4");
      expect(await page.locator(".result-question img").getAttribute("alt")).toBe(CONTENT_IMAGE_ALT);
      expect(await page.locator("#result-questions").innerText()).not.toMatch(/<\/?[a-z]+>|&lt;|&amp;/);
      expect(await ran(page)).toBeNull();

      const submissionId = (await page.evaluate("sessionStorage.getItem('quiz-player:submission')")) as string;
      const results = await harness.admin(`/v1/submissions/${submissionId}/results`);
      expect(results.json.answers.map((a: any) => [a.type, a.correct])).toEqual([
        ["numeric", true],
        ["single_choice", true],
        ["multiple_choice", true],
        ["fill_in_blanks", true],
        ["true_false", true],
        ["matching", true],
      ]);
      // The picture was fetched from this origin; nothing else outside it.
      expect(session.requests.some((r) => new URL(r.url).pathname === learner.asset.url)).toBe(true);
      await expectClean(session, learner.token);
    },
    TEST_TIMEOUT_MS,
  );

  for (const [name, viewport] of [
    ["1280 px", DESKTOP],
    ["390 px", PHONE],
  ] as const) {
    it(
      `has no WCAG 2.2 A or AA violation that axe-core finds at ${name}: each formatted question and the result; nothing scrolls sideways`,
      async () => {
        const learner = await newContentAttempt();
        const session = await openContext(harness, viewport, { bypassCSP: true });
        const { page } = session;
        await page.goto(learner.playerUrl);
        await page.locator("#start-attempt").click();
        await page.locator("#question-heading").waitFor();
        for (let n = 1; n <= 6; n++) {
          await goToQuestion(page, n);
          if (n === 3)
            await expect
              .poll(() => page.locator(`${body} img`).evaluate((el) => (el as { naturalWidth: number }).naturalWidth))
              .toBe(6);
          expect(await axeViolations(page), `question ${n}`).toEqual([]);
          expect(await noHorizontalScroll(page), `question ${n}`).toBe(true);
        }
        await page.locator("#open-review").click();
        await page.locator("#review-heading").waitFor();
        await page.locator("#submit").click();
        await page.locator("#result-score").waitFor();
        expect(await axeViolations(page), "the result").toEqual([]);
        expect(await noHorizontalScroll(page), "the result").toBe(true);
        expect(await ran(page)).toBeNull();
        await expectClean(session, learner.token);
      },
      TEST_TIMEOUT_MS,
    );
  }
});
