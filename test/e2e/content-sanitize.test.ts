/**
 * CONTRACT §19 in a real browser: every hostile fragment of test/support/hostile-html.ts is written
 * through the API as an "html" question's prompt (the built worker under Miniflare, as the report
 * page's test runs it), read back, and assigned as innerHTML in Chromium on a page without any
 * Content-Security-Policy (so that nothing but the sanitizer stands in the way). Nothing may run:
 * no call of the page's `__ran` hook, no dialog, no request but to an asset, no navigation; and the
 * browser must read the stored fragment as it was written (its innerHTML is the stored string), so
 * that the tree the sanitizer checked is the tree the browser builds.
 */
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../../scripts/report-demo";
import { HOSTILE_HTML } from "../support/hostile-html";
import { png } from "../support/images";
import { strictProblem } from "../support/strict-html";
import { type BuiltWorker, launchChromium, startBuiltWorker, stopBuiltWorker } from "./chromium";

const SETUP_TIMEOUT_MS = 240_000;
const PAGE_ORIGIN = "https://content.test";
const PLACEHOLDER_ASSET = "ast_0123456789abcdefghjkmnpqrstvwxyz";
/** The page: a hook any payload would call, and links that do not navigate (a javascript: one would still run). */
const PAGE = `<!doctype html><html><head><title>content</title><script>
  window.__runs = 0; window.__ran = () => { window.__runs++; };
  document.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest("a");
    if (a && /^(https?|mailto):/.test(a.href)) e.preventDefault();
  }, true);
</script><script type="module">
  import { formatted } from "/content.js";
  window.__formatted = formatted;
</script></head><body></body></html>`;

let built: BuiltWorker;
let browser: Browser;
let page: Page;
let api: ReturnType<typeof apiClient>;
const requests: string[] = [];
const dialogs: string[] = [];
const stored = new Map<string, string>();

beforeAll(async () => {
  built = await startBuiltWorker("content-e2e-", "content e2e");
  const key = built.adminKey;
  api = apiClient(built.worker.url, key);
  const quiz = await api("/v1/quizzes", { body: { title: "Hostile content" } });
  expect(quiz.status, JSON.stringify(quiz.json)).toBe(201);
  // The table's asset id names no asset here: an img may name only one that exists, so a real one stands in.
  const upload = await fetch(new URL("/v1/assets", built.worker.url), {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "image/png" },
    body: png(4, 3, 1),
  });
  expect(upload.status).toBe(201);
  const assetId = ((await upload.json()) as { id: string }).id;
  for (const [name, html] of HOSTILE_HTML) {
    const res = await api(`/v1/quizzes/${quiz.json.id}/questions`, {
      body: {
        type: "true_false",
        content_format: "html",
        prompt: `Case: ${html.replaceAll(PLACEHOLDER_ASSET, assetId)}`,
        correct: true,
      },
    });
    // A control character (the null byte's entry) is refused as text before any sanitizing: a 400, never a 500.
    if (res.status === 400 && /control characters/.test(JSON.stringify(res.json))) continue;
    expect(res.status, `${name}: ${JSON.stringify(res.json)}`).toBe(201);
    const read = await api(`/v1/quizzes/${quiz.json.id}/questions/${res.json.id}`);
    expect(read.json.content_format).toBe("html");
    stored.set(name, read.json.prompt);
  }
  browser = await launchChromium();
  const context = await browser.newContext();
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url === `${PAGE_ORIGIN}/`) return route.fulfill({ status: 200, contentType: "text/html", body: PAGE });
    if (url === `${PAGE_ORIGIN}/content.js`)
      return route.fulfill({
        status: 200,
        contentType: "text/javascript",
        body: readFileSync("public/shared/content.js", "utf8"),
      });
    requests.push(url);
    return route.fulfill({ status: 404, body: "" });
  });
  page = await context.newPage();
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(`${PAGE_ORIGIN}/`);
  await page.waitForFunction('"__formatted" in window');
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await stopBuiltWorker(built, browser);
});

/** The fragment as innerHTML, every element hovered, focused and clicked; what the browser serializes it back to. */
async function render(html: string): Promise<string> {
  // Strings, not functions: the page's code is browser code, which this Node project's types do not cover.
  const serialized = (await page.evaluate(`(() => {
    const holder = document.createElement("div");
    holder.innerHTML = ${JSON.stringify(html)};
    document.body.replaceChildren(holder);
    for (const element of holder.querySelectorAll("*")) {
      element.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
      element.dispatchEvent(new FocusEvent("focus"));
      if (element instanceof HTMLElement) element.click();
    }
    return holder.innerHTML;
  })()`)) as string;
  // Error and load events of images and media fire after the assignment.
  await page.waitForTimeout(60);
  return serialized;
}

describe("hostile HTML, stored through the API and shown in Chromium", () => {
  it("stored every entry but the one the text rules refuse", () => {
    expect(stored.size).toBe(HOSTILE_HTML.length - 1);
  });

  it.each(HOSTILE_HTML.map(([name]) => [name]))("%s: runs nothing, and the browser reads what was stored", async (name) => {
    const html = stored.get(name);
    if (html === undefined) return;
    expect(strictProblem(html), html).toBeNull();
    const before = requests.length;
    const serialized = await render(html);
    expect(await page.evaluate("window.__runs"), html).toBe(0);
    expect(dialogs).toEqual([]);
    expect(requests.slice(before).filter((url) => !url.startsWith(`${PAGE_ORIGIN}/v1/assets/ast_`))).toEqual([]);
    expect(page.url()).toBe(`${PAGE_ORIGIN}/`);
    expect(serialized).toBe(html);
  });

  it.each(HOSTILE_HTML.map(([name]) => [name]))(
    "%s: the report page's builder (public/shared/content.js) makes the same nodes, and runs nothing",
    async (name) => {
      const html = stored.get(name);
      if (html === undefined) return;
      const before = requests.length;
      const built = await page.evaluate(`(() => {
        const holder = document.createElement("div");
        const nodes = window.__formatted(${JSON.stringify(html)}, "html");
        holder.append(nodes);
        document.body.replaceChildren(holder);
        for (const element of holder.querySelectorAll("*")) if (element instanceof HTMLElement) element.click();
        return { asText: typeof nodes === "string", html: holder.innerHTML };
      })()`);
      await page.waitForTimeout(30);
      expect(await page.evaluate("window.__runs")).toBe(0);
      expect(requests.slice(before).filter((url) => !url.startsWith(`${PAGE_ORIGIN}/v1/assets/ast_`))).toEqual([]);
      // Built node by node, it is the tree the browser's own parser made of the stored string.
      expect(built).toEqual({ asText: false, html });
    },
  );

  it("the report page's builder shows anything not in the stored form as plain text", async () => {
    const shown = await page.evaluate(
      `${JSON.stringify(['<img src=x onerror="__ran()">', '<p onclick="x">y</p>', "<script>__ran()</script>", "<b>open"])}.map((html) => typeof window.__formatted(html, "html") === "string")`,
    );
    expect(shown).toEqual([true, true, true, true]);
  });

  it("the hook and the checks would see a payload that ran", async () => {
    // The page itself is unsanitized here: the same checks catch a handler that runs.
    await page.evaluate(`document.body.innerHTML = '<img src="/nowhere.png" onerror="__ran()">'`);
    await page.waitForTimeout(200);
    expect(await page.evaluate("window.__runs")).toBe(1);
    expect(requests.some((url) => url.endsWith("/nowhere.png"))).toBe(true);
  });
});
