import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GradableQuestion } from "../../../src/domain/question-types";
import type { QuestionInput, QuizQuestion } from "../../../src/interchange";
import { gradable, probes, serviceShare } from "../../../src/interchange/formats/qti/probe";
import { quizQuestionArb } from "../../interchange/arbitraries";
import { translate } from "../../interchange/helpers";
import { BASE, call, defaultKey } from "../../support/call";
import { finished, questionsOf, upload } from "./helpers";

/**
 * §13's round trip over HTTP: a quiz of every question type is exported by
 * GET /v1/quizzes/{id}/export and the file imported by POST /v1/imports; each question the format
 * expresses comes back awarding the same points to right, wrong and partly right responses (GIFT,
 * which has no points, the same share), with its title, tags, option feedback and explanation.
 * The pure version, over many more random quizzes, is test/interchange/round-trip.test.ts.
 */

const FORMATS = [
  ["qti3", "application/zip", "qti"],
  ["qti21", "application/zip", "qti"],
  ["moodle_xml", "application/xml", "moodle_xml"],
  ["gift", "text/plain", "gift"],
] as const;

/** Random questions of every type (the pure test's arbitraries), made into API inputs. */
const SAMPLE = fc.sample(quizQuestionArb, { seed: 2026, numRuns: 45 });
const inputs = SAMPLE.map(({ id: _id, ...q }) => ({
  ...q,
  ...(q.title === undefined ? {} : { title: q.title }),
  feedback: { correct: "Well done.", incorrect: "Not quite." },
}));

async function exported(quizId: string, format: string) {
  const res = await exports.default.fetch(
    new Request(`${BASE}/v1/quizzes/${quizId}/export?format=${format}`, {
      headers: { authorization: `Bearer ${await defaultKey()}` },
    }),
  );
  expect(res.status).toBe(200);
  const skipped = res.headers.get("export-skipped")?.split(",") ?? [];
  return { file: new Uint8Array(await res.arrayBuffer()), skipped };
}

describe.each(FORMATS)("export as %s, then import", (format, mediaType, importFormat) => {
  it("gives questions that grade every probed response as the originals, with their titles, tags, feedback and explanations", async () => {
    expect(new Set(SAMPLE.map((q) => q.type)).size).toBe(9);
    const quiz = await call("/v1/quizzes", { body: { title: `Round trip ${format}`, questions: inputs } });
    expect(quiz.status, quiz.text).toBe(201);
    const originals = (await questionsOf(quiz.json.id)) as QuizQuestion[];
    const { file, skipped } = await exported(quiz.json.id, format);
    const res = await upload(file, mediaType, `format=${importFormat}`);
    expect(res.status, res.text).toBe(202);
    const job = await finished(res.json.id);
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    const kept = originals.filter((q) => !skipped.includes(q.id));
    expect(kept.length).toBeGreaterThan(0);
    expect(job.result!.report.map((e) => e.status)).toEqual(kept.map(() => "imported"));
    const read = await questionsOf(job.quiz_id);
    expect(read).toHaveLength(kept.length);
    kept.forEach((original, i) => {
      const back = read[i] as QuestionInput & { tags: string[]; title: string | null };
      const where = `${format} #${i} ${original.type}`;
      expect(back.type, where).toBe(original.type);
      expect(back.title, where).toBe(original.title);
      expect(new Set(back.tags), where).toEqual(new Set(original.tags));
      expect(back.explanation ?? null, where).toBe(original.explanation);
      if ("options" in original && "options" in back)
        for (const o of original.options) expect(back.options.find((x) => x.text === o.text)?.feedback, where).toBe(o.feedback);
      if (format !== "gift") expect(back.points, where).toBe(original.points);
      // Question-level right/wrong feedback: QTI keeps it; Moodle has none for cloze and essay, GIFT little (docs/import-export.md).
      if (format.startsWith("qti") || (format === "moodle_xml" && !["fill_in_blanks", "essay"].includes(original.type)))
        expect(back.feedback, where).toEqual(original.feedback);
      const before = original as unknown as GradableQuestion;
      const after = gradable(back);
      for (const response of probes(before)) {
        const share = serviceShare(before, response);
        const again = serviceShare(after, translate(original, back, response));
        if (format === "gift") expect(Math.abs(again - share), `${where} ${JSON.stringify(response)}`).toBeLessThanOrEqual(2e-6);
        else expect({ where, response, share: again }).toEqual({ where, response, share });
      }
    });
  }, 60_000);
});
