import fc from "fast-check";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { exportQuiz, type QuestionInput, readQuestionBank } from "../../src/interchange";
import { quizQuestionArb } from "./arbitraries";
import { AIKEN, bytes, GIFT, MOODLE, QTI } from "./fixtures";

/**
 * Every question a reader produces is a question input `POST /v1/quizzes/{id}/questions` accepts:
 * checked against that route's own request schema, found through the app's OpenAPI registry (so
 * no route module is imported). The one test here that needs the app; the others are pure.
 */
type Parser = { safeParse(v: unknown): { success: boolean; error?: { issues: unknown[] } } };
const definitions = (app as unknown as { openAPIRegistry: { definitions: { type: string; route?: any }[] } }).openAPIRegistry
  .definitions;
const route = definitions.find(
  (d) => d.type === "route" && d.route.method === "post" && d.route.path === "/v1/quizzes/{id}/questions",
);
const schema = route?.route.request.body.content["application/json"].schema as Parser;

function expectAccepted(questions: (QuestionInput | undefined)[]) {
  for (const q of questions) {
    if (!q) continue;
    const parsed = schema.safeParse(q);
    expect(parsed.error?.issues ?? [], JSON.stringify(q)).toEqual([]);
  }
}

describe("what the readers produce, the API accepts", () => {
  it("every question read from the fixtures", () => {
    const package_ = zipSync({
      "imsmanifest.xml": bytes(QTI.package.manifest),
      "tests/warm-up.xml": bytes(QTI.package.test),
      "items/order-v3.xml": bytes(QTI.orderV3),
      "items/true-false-v3.xml": bytes(QTI.trueFalseV3),
    });
    const files = [
      bytes(GIFT.kinds),
      bytes(AIKEN.capitals),
      bytes(MOODLE.types),
      package_,
      ...Object.values(QTI).flatMap((x) => (typeof x === "string" ? [bytes(x)] : [])),
    ];
    for (const file of files) expectAccepted(readQuestionBank(file).items.map((i) => i.question));
  });

  it("every question read back from an export of a random quiz", () => {
    fc.assert(
      fc.property(fc.array(quizQuestionArb, { minLength: 1, maxLength: 5 }), (questions) => {
        for (const [format, read] of [
          ["qti3", "qti"],
          ["moodle_xml", "moodle_xml"],
          ["gift", "gift"],
        ] as const) {
          const file = exportQuiz(format, { title: "Accepted" }, questions);
          if (file.skipped.length === questions.length) continue;
          const body = typeof file.body === "string" ? bytes(file.body) : file.body;
          expectAccepted(readQuestionBank(body, { format: read }).items.map((i) => i.question));
        }
      }),
      { seed: 13, numRuns: 40 },
    );
  }, 60_000);
});
