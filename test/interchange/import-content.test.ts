import { describe, expect, it } from "vitest";
import { contentOptions } from "../../src/authoring/question-content";
import { planImport } from "../../src/imports/plan";
import type { ImportResult } from "../../src/interchange";

/**
 * The import's write path goes through the content step like the API's (docs/content.md): an item
 * whose question is "html" is stored sanitized, its TeX as MathML, and one that sanitizing leaves
 * invalid is skipped with the reason. Today's readers make "text" questions only; the importers
 * that keep formatted text (CONTRACT §19) will hand theirs to this same plan.
 */
const NOW = "2026-12-02T10:00:00.000Z";
const QUIZ = { id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r", questionCount: 0, answerBytes: 0 };
const entry = (source_id: string) => ({ source_id, status: "imported" as const, notes: [] });
const item = (source_id: string, prompt: string, content_format: "text" | "html" = "html") => ({
  entry: entry(source_id),
  question: { type: "true_false", content_format, prompt, points: 1, feedback: {}, correct: true } as never,
});

describe("planImport with formatted text", () => {
  it("stores html items sanitized (TeX as MathML), text items as written, and skips one sanitizing empties", async () => {
    const result: ImportResult = {
      format: "gift",
      items: [
        item("1", "<p>Is \\(x^2 \\ge 0\\)?<script>alert(1)</script></p>"),
        item("2", "<p>Shown as written</p>", "text"),
        item("3", "<script>only</script>"),
      ],
    };
    const plan = planImport(result, QUIZ, NOW, await contentOptions(result.items.map((i) => i.question)));
    expect(plan.rows.map((row) => [row.contentFormat, row.prompt])).toEqual([
      [
        "html",
        '<p>Is <math><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup><mo>≥</mo><mn>0</mn></mrow><annotation encoding="application/x-tex">x^2 \\ge 0</annotation></semantics></math>?</p>',
      ],
      ["text", "<p>Shown as written</p>"],
    ]);
    expect(plan.report[2]).toMatchObject({ status: "skipped" });
    expect(plan.report[2]?.notes[0]).toMatch(/^Skipped: the API refuses the question it would become \(prompt: Once sanitized/);
  });
});
