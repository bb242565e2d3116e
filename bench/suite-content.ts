// Formatted text (docs/content.md): what sanitizing costs per KiB of HTML, in Node (V8, as
// workerd): formatted HTML without TeX, the same with TeX (KaTeX's MathML), the hostile table of
// test/support/hostile-html.ts, and the text content of what was stored; then what the sanitizer
// and KaTeX add to the bundle (esbuild's metafile, minified, as bench/bundle.ts's composition).
import { sanitizeHtml } from "../src/domain/content/sanitize";
import { loadTex } from "../src/domain/content/tex";
import { textContent } from "../src/domain/content/text-content";
import { HOSTILE_HTML } from "../test/support/hostile-html";
import { composition } from "./bundle";
import { machine, progress } from "./config";
import { kib, median, table } from "./report";

const TARGET_BYTES = 64 * 1024;
const RUNS = 9;
const MIN_BATCH_MS = 50;

const repeatTo = (unit: string) => unit.repeat(Math.ceil(TARGET_BYTES / unit.length));
const RICH =
  '<p>Which of these is <b>true</b> of <i>the</i> <a href="https://example.com/ref">reference</a>?</p><ul><li>One &amp; two</li><li>Three <code>x &lt; y</code></li></ul><table><tr><th scope="col">A</th><td>1</td></tr></table>';
const WITH_TEX = "<p>Solve \\(x^2 - 5x + 6 = 0\\) and give \\[\\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}\\].</p>";

/** Microseconds per KiB of input: the fastest of RUNS batches (load only ever adds time). */
function perKib(input: string, work: (input: string) => unknown): number {
  let batch = 1;
  for (;;) {
    const started = performance.now();
    for (let i = 0; i < batch; i++) work(input);
    if (performance.now() - started >= MIN_BATCH_MS) break;
    batch *= 2;
  }
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const started = performance.now();
    for (let i = 0; i < batch; i++) work(input);
    times.push((performance.now() - started) / batch);
  }
  return (Math.min(...times) * 1000) / (input.length / 1024);
}

export async function contentSuite(loadBefore: number[]): Promise<string> {
  progress("content: sanitizer cost per KiB");
  const tex = await loadTex();
  const rich = repeatTo(RICH);
  const withTex = repeatTo(WITH_TEX);
  const hostile = repeatTo(HOSTILE_HTML.map(([, html]) => html).join("\n"));
  const stored = sanitizeHtml(rich, { tex }).html;
  const rows = [
    ["formatted HTML, no TeX", perKib(rich, (s) => sanitizeHtml(s, { tex }))],
    ["HTML with TeX (KaTeX to MathML)", perKib(withTex, (s) => sanitizeHtml(s, { tex }))],
    ["the hostile table, repeated", perKib(hostile, (s) => sanitizeHtml(s, { tex }))],
    ["text content of the stored HTML", perKib(stored, textContent)],
  ] as const;
  progress("content: bundle shares");
  const parts = await composition("src/index.ts");
  const total = parts.reduce((sum, p) => sum + p.bytes, 0);
  const share = (name: string) => parts.find((p) => p.name === name)?.bytes ?? 0;
  return [
    "## Formatted text: the sanitizer (`npm run bench`, part content)",
    "",
    machine(loadBefore),
    "",
    `Sanitizing ${kib(TARGET_BYTES)} fragments in Node, fastest of ${RUNS} batches (median of the batches in brackets is not kept: load only adds).`,
    "",
    table(
      ["input", "µs per KiB", "ms per 100 000 characters"],
      rows.map(([name, us]) => [name, us.toFixed(1), ((us * 100_000) / 1024 / 1000).toFixed(2)]),
    ),
    "",
    "What it adds to the minified bundle (esbuild's metafile, before gzip):",
    "",
    table(
      ["part", "bytes", "share"],
      [
        ["katex", kib(share("katex")), `${((share("katex") / total) * 100).toFixed(1)} %`],
        ["src/domain/content", kib(share("src/domain/content")), `${((share("src/domain/content") / total) * 100).toFixed(1)} %`],
        ["whole bundle", kib(total), "100 %"],
      ],
    ),
    "",
    `(Median check: ${median(rows.map(([, us]) => us)).toFixed(1)} µs per KiB across the inputs.)`,
  ].join("\n");
}
