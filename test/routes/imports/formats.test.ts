import { describe, expect, it } from "vitest";
import { readQuestionBank } from "../../../src/interchange";
import { AIKEN, bytes, GIFT, MOODLE, QTI } from "../../interchange/fixtures";
import { call } from "../../support/call";
import { eventsAbout, finished, fixturePackage, footprint, imported, questionsOf, upload } from "./helpers";

/**
 * POST /v1/imports of each format through the real route, R2 and jobs queue: the report is the
 * reader's, entry for entry in source order, with the id of each question written; the quiz and
 * its questions are written with quiz.created and one question.created each; the file is gone.
 */

const CASES = [
  ["aiken", AIKEN.capitals, "text/plain"],
  ["gift", GIFT.kinds, "text/plain; charset=utf-8"],
  ["moodle_xml", MOODLE.types, "application/xml"],
  ["qti (one item)", QTI.choiceV2p1, "text/xml"],
  ["qti (package)", fixturePackage(), "application/zip"],
] as const;

describe("POST /v1/imports, each format", () => {
  it.each(CASES)(
    "%s: the reader's report in source order, the quiz and its questions with their events",
    async (_, file, type) => {
      const data = typeof file === "string" ? bytes(file) : file;
      const expected = readQuestionBank(data).items.map((i) => i.entry);
      const job = await imported(data, type);
      expect(job.error, JSON.stringify(job.error)).toBeNull();
      expect(job.status).toBe("succeeded");
      const { result } = job;
      expect(result!.report.map(({ question_id: _, ...entry }) => entry)).toEqual(expected);
      const counts = { imported: 0, approximated: 0, skipped: 0 };
      for (const e of expected) counts[e.status]++;
      expect(result).toMatchObject({ quiz_id: job.quiz_id, items_total: expected.length, ...counts });
      expect(job.progress).toEqual({ done: expected.length, total: expected.length });

      const written = result!.report.filter((e) => e.status !== "skipped");
      expect(written.length).toBeGreaterThan(0);
      const questions = await questionsOf(job.quiz_id);
      expect(questions.map((q) => [q.id, q.type, q.title ?? undefined])).toEqual(
        written.map((e) => [e.question_id, e.type, e.title]),
      );
      expect(questions.map((q) => q.position)).toEqual(written.map((_: unknown, i: number) => i + 1));

      const quiz = await call(`/v1/quizzes/${job.quiz_id}`);
      expect(quiz.json.questions).toBe(written.length);
      const [created, ...more] = await eventsAbout("quiz.created", (o) => o.id === job.quiz_id);
      expect(more).toEqual([]);
      expect(created!.data.object.question_ids).toEqual(written.map((e) => e.question_id));
      const ids = new Set(written.map((e) => e.question_id));
      expect((await eventsAbout("question.created", (o) => ids.has(o.id as string))).length).toBe(ids.size);
      expect((await footprint()).uploads).toBe(0);
    },
  );

  it("recognises the format when none is given, and answers 202 with the job", async () => {
    for (const [, file, type] of CASES) {
      const res = await upload(typeof file === "string" ? bytes(file) : file, type);
      expect(res.status, res.text).toBe(202);
      const job = await finished(res.json.id);
      expect(job.status).toBe("succeeded");
    }
  });

  it("a format named that the file is not → the job fails unreadable_file, nothing written", async () => {
    const before = await footprint();
    const job = await imported(GIFT.kinds, "text/plain", "format=aiken");
    expect(job).toMatchObject({ status: "failed", result: null, error: { code: "unreadable_file" } });
    expect(job.error!.detail.length).toBeGreaterThan(0);
    expect(await footprint()).toEqual(before);
  });

  it("keeps the titles, tags, option feedback and explanations the file carries", async () => {
    const job = await imported(MOODLE.types, "application/xml", "format=moodle_xml");
    const questions = await questionsOf(job.quiz_id);
    const withTags = questions.filter((q) => q.tags.length > 0);
    expect(withTags.length).toBeGreaterThan(0);
    expect(questions.some((q) => q.explanation)).toBe(true);
    expect(questions.some((q) => q.options?.some((o) => o.feedback))).toBe(true);
    const reader = readQuestionBank(bytes(MOODLE.types)).items.filter((i) => i.question);
    expect(questions.map((q) => q.tags)).toEqual(reader.map((i) => i.question?.tags ?? []));
  });

  it("names the new quiz: the title given, else the file's, else a dated default", async () => {
    const named = await imported(QTI.choiceV2p1, "application/xml", "title=Biology%20bank");
    expect((await call(`/v1/quizzes/${named.quiz_id}`)).json.title).toBe("Biology bank");
    const fromFile = await imported(fixturePackage(), "application/zip");
    expect((await call(`/v1/quizzes/${fromFile.quiz_id}`)).json.title).toBe("Warm-up test");
    const plain = await imported(AIKEN.capitals, "text/plain");
    expect((await call(`/v1/quizzes/${plain.quiz_id}`)).json.title).toMatch(/^Imported questions \(\d{4}-\d{2}-\d{2}\)$/);
  });

  it("a file of which nothing can be imported writes no quiz: result.quiz_id null", async () => {
    const before = await footprint();
    const job = await imported(QTI.hotspotV3, "application/xml");
    expect(job.status).toBe("succeeded");
    expect(job.result).toMatchObject({ quiz_id: null, items_total: 1, imported: 0, approximated: 0, skipped: 1 });
    expect((await call(`/v1/quizzes/${job.quiz_id}`)).status).toBe(404);
    const after = await footprint();
    expect(after).toEqual(before);
  });

  it("an Idempotency-Key replays the first job instead of importing twice", async () => {
    const headers = { "idempotency-key": `import-${crypto.randomUUID()}` };
    const first = await upload(AIKEN.capitals, "text/plain", "", { headers });
    const again = await upload(AIKEN.capitals, "text/plain", "", { headers });
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.id).toBe(first.json.id);
    const other = await upload(GIFT.kinds, "text/plain", "", { headers });
    expect(other.status).toBe(409);
    await finished(first.json.id);
  });
});
