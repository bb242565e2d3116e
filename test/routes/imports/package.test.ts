import { describe, expect, it } from "vitest";
import { QTI } from "../../interchange/fixtures";
import { call } from "../../support/call";
import { bigQtiPackage } from "./big-package";
import { finished, footprint, questionsOf, upload } from "./helpers";

/**
 * The largest import §13 allows, in one delivery of the jobs queue: a 10 MiB content package of
 * 200 items (nine interaction kinds, an image each), every item written, in manifest order.
 */
const TEMPLATES = {
  items: [
    QTI.choiceV2p1,
    QTI.choiceMultipleV2p2,
    QTI.textEntryV3,
    QTI.numericToleranceV2p1,
    QTI.orderV3,
    QTI.matchV2p2,
    QTI.trueFalseV3,
    QTI.blanksV2p2,
  ],
  essay: QTI.extendedTextV3,
};

describe("a 10 MiB QTI package of 200 items", () => {
  it("imports every item in one job, in order, within the invocation", async () => {
    const zip = bigQtiPackage(TEMPLATES, 200);
    expect(zip.length).toBeGreaterThan(9.5 * 1024 * 1024);
    expect(zip.length).toBeLessThanOrEqual(10 * 1024 * 1024);
    const started = Date.now();
    const res = await upload(zip, "application/zip");
    expect(res.status, res.text).toBe(202);
    const job = await finished(res.json.id, 120_000);
    const seconds = (Date.now() - started) / 1000;
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    expect(job.result!.items_total).toBe(200);
    expect(job.result!.imported + job.result!.approximated).toBe(200);
    expect(job.result!.report.map((e) => e.source_id)).toEqual(Array.from({ length: 200 }, (_, i) => `item-${i}`));
    // Every item names an image, which is dropped and noted.
    expect(job.result!.report.every((e) => e.notes.some((n: string) => /image/i.test(n)))).toBe(true);
    const questions = await questionsOf(job.quiz_id);
    expect(questions).toHaveLength(200);
    expect(questions.map((q) => q.id)).toEqual(job.result!.report.map((e) => e.question_id));
    expect((await call(`/v1/quizzes/${job.quiz_id}`)).json.questions).toBe(200);
    expect((await footprint()).uploads).toBe(0);
    console.info(`200-item package (${(zip.length / 1048576).toFixed(2)} MiB): imported in ${seconds.toFixed(2)} s`);
  }, 180_000);
});
