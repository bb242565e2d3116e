import { beforeAll, describe, expect, it } from "vitest";
import { sanitizeHtml, type TexRenderer } from "../../src/domain/content/sanitize";
import { loadTex } from "../../src/domain/content/tex";
import { textContent } from "../../src/domain/content/text-content";
import { NestingTooDeep } from "../../src/domain/content/tree";
import { DOUBLINGS, expectGrowthAtMost, GROWTH_TEST_TIMEOUT_MS } from "../support/growth";

/**
 * The sanitizer is linear in its input (docs/security.md, "Parsing has a budget"; docs/content.md):
 * each hostile fragment of 16, 32, 64 and 128 KiB is sanitized, and its time grows at most as
 * linear work does (test/support/growth.ts: ratios of CPU times in the same run).
 */

/** A fragment of `size` characters: `unit` repeated, after `head` and before `tail`. */
const repeated =
  (unit: string, head = "", tail = "") =>
  (size: number) =>
    head + unit.repeat(Math.max(1, Math.floor((size - head.length - tail.length) / unit.length))) + tail;

const CASES: [name: string, make: (size: number) => string][] = [
  ["plain text with references", repeated("a &amp; b &lt; c &#x41; &eacute; ")],
  ["allowed markup, closed", repeated("<p><b>x</b> <a href='https://e.example'>y</a><br></p>")],
  ["unclosed comment", repeated("-- - -", "<!--")],
  ["comment openers", repeated("<!--x-->")],
  ["a tag never closed", repeated(' a="x" b', "<p")],
  ["tags inside an unclosed quoted value", repeated("<b>x</b>", '<p title="')],
  ["script holding near-end tags", repeated("</scrip </scriptx ", "<script>")],
  ["end tags of elements not open", repeated("</b></i></td></math>", "<b>".repeat(60))],
  ["p and li opened over and over", repeated("<p>x<li>y<dd>z")],
  ["table parts over and over", repeated("<td>x<tr><th>y", "<table>")],
  ["MathML at depth", repeated("<mi>x</mi><mo>+</mo>", `<math>${"<mrow>".repeat(60)}`)],
  ["elements removed with their content", repeated("<svg><g><path d='x'/></g></svg>")],
  ["unknown elements unwrapped", repeated("<font><center>x</center></font>")],
  ["TeX openers without closers", repeated("\\( x \\[ y ")],
  ["references cut short", repeated("&#x&#&aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa&")],
  ["attributes by the hundred", repeated(' onclick="x" title=y lang', "<p", ">z</p>")],
];

let tex: TexRenderer;
beforeAll(async () => {
  tex = await loadTex();
});

const run = (html: string) => {
  try {
    return sanitizeHtml(html, { tex }).html.length;
  } catch (error) {
    if (error instanceof NestingTooDeep) return -1;
    throw error;
  }
};

describe("sanitizing is linear in the fragment", { timeout: GROWTH_TEST_TIMEOUT_MS }, () => {
  it.each(CASES)("%s", (_name, make) => {
    expectGrowthAtMost({
      sizes: DOUBLINGS,
      perStep: 2.5,
      make: (size) => {
        const html = make(size);
        expect(run(html)).not.toBeUndefined();
        return () => run(html);
      },
    });
  });

  it("TeX converted, formula after formula", () => {
    expectGrowthAtMost({
      sizes: DOUBLINGS.map((size) => size / 8),
      perStep: 2.5,
      make: (size) => {
        const html = repeated("\\(x^2+\\frac{a}{b}\\) ")(size);
        expect(sanitizeHtml(html, { tex }).html).toContain("<math>");
        return () => run(html);
      },
    });
  });

  it("the text content of a stored fragment", () => {
    expectGrowthAtMost({
      sizes: DOUBLINGS,
      perStep: 2.5,
      make: (size) => {
        const html = sanitizeHtml(repeated("<p>a <b>b</b><br>c</p>")(size)).html;
        return () => textContent(html);
      },
    });
  });
});
