import { exports } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, call, defaultKey, expectProblem, seedApiKey } from "../../support/call";

/**
 * GET /v1/quizzes/{id}/export (§13): each format's media type, attachment name and contents, and
 * the questions a format cannot express left out and named in Export-Skipped and in the file.
 * The round trip back through POST /v1/imports is test/routes/imports/round-trip.test.ts.
 */

const QUESTIONS = [
  {
    type: "single_choice",
    title: "Capital of France",
    tags: ["geography", "europe"],
    prompt: "Capital of France?",
    options: [{ text: "Paris" }, { text: "Lyon", feedback: "Lyon is France's third city." }],
    correct_option_id: "a",
    explanation: "Paris has been the capital since 987.",
  },
  {
    type: "ordering",
    title: "Rivers by length",
    prompt: "Longest first.",
    items: [
      { id: "nile", text: "Nile" },
      { id: "loire", text: "Loire" },
    ],
    correct_order: ["nile", "loire"],
  },
  { type: "short_text", prompt: "Name the river of Paris.", accepted_answers: ["Seine"], case_sensitive: true },
  { type: "numeric", prompt: "π to two decimals?", correct_value: 3.14, tolerance: 0.005, points: 2 },
];

let quiz: { id: string; question_ids: string[] };
beforeAll(async () => {
  const res = await call("/v1/quizzes", { body: { title: "Capitals & Rivers: Été 2026!", questions: QUESTIONS } });
  expect(res.status, res.text).toBe(201);
  quiz = res.json;
});

const exportOf = (format: string, auth?: string) => call(`/v1/quizzes/${quiz.id}/export?format=${format}`, { auth });
/** The answer with its body as bytes (call() reads bodies as text). */
async function bytesOf(format: string): Promise<{ res: Response; bytes: Uint8Array }> {
  const res = await exports.default.fetch(
    new Request(`${BASE}/v1/quizzes/${quiz.id}/export?format=${format}`, {
      headers: { authorization: `Bearer ${await defaultKey()}` },
    }),
  );
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe("GET /v1/quizzes/{id}/export", () => {
  it.each([
    ["qti3", "http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1", "qti-assessment-item"],
    ["qti21", "http://www.imsglobal.org/xsd/imscp_v1p1", "assessmentItem"],
  ])("%s: a content package with the manifest, one test and one item per question", async (format, manifestNs, itemRoot) => {
    const { res, bytes } = await bytesOf(format);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="capitals-rivers-ete-2026.zip"');
    expect(res.headers.get("export-skipped")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");
    const files = unzipSync(bytes);
    expect(Object.keys(files).sort()).toEqual(
      ["imsmanifest.xml", "tests/test.xml", ...quiz.question_ids.map((id) => `items/${id}.xml`)].sort(),
    );
    expect(strFromU8(files["imsmanifest.xml"] as Uint8Array)).toContain(manifestNs);
    const first = strFromU8(files[`items/${quiz.question_ids[0]}.xml`] as Uint8Array);
    expect(first).toContain(`<${itemRoot}`);
    expect(first).toContain("Lyon is France's third city.");
  });

  it("gift: text with the titles, option feedback and explanation; ordering and case-sensitive answers skipped", async () => {
    const res = await exportOf("gift");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="capitals-rivers-ete-2026.gift"');
    const skipped = [quiz.question_ids[1], quiz.question_ids[2]];
    expect(res.headers.get("export-skipped")).toBe(skipped.join(","));
    expect(res.text).toContain(`Left out (GIFT cannot express them): ${skipped.join(", ")}`);
    expect(res.text).toContain("::Capital of France::");
    expect(res.text).toContain("#Lyon is France's third city.");
    expect(res.text).toContain("####Paris has been the capital since 987.");
    expect(res.text).not.toContain("Longest first.");
  });

  it("moodle_xml: application/xml, every question (nothing here Moodle cannot express)", async () => {
    const res = await exportOf("moodle_xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="capitals-rivers-ete-2026.xml"');
    expect(res.headers.get("export-skipped")).toBeNull();
    expect(res.text.match(/<question type="(?!category)/g)).toHaveLength(QUESTIONS.length);
    expect(res.text).toContain("<defaultgrade>2</defaultgrade>");
  });

  it("moodle_xml names an all-or-nothing matching it cannot express", async () => {
    const matching = {
      type: "matching",
      prompt: "Match.",
      pairs: [
        { prompt: "France", choice: "Paris" },
        { prompt: "Italy", choice: "Rome" },
      ],
      scoring: "all_or_nothing",
    };
    const created = await call("/v1/quizzes", { body: { title: "Matching", questions: [matching] } });
    const res = await call(`/v1/quizzes/${created.json.id}/export?format=moodle_xml`);
    expect(res.headers.get("export-skipped")).toBe(created.json.question_ids[0]);
  });

  it("an empty quiz exports an empty file of its format; a quiz without a usable title is quiz.<ext>", async () => {
    const created = await call("/v1/quizzes", { body: { title: "¿¿¿" } });
    const res = await call(`/v1/quizzes/${created.json.id}/export?format=gift`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="quiz.gift"');
  });

  it("refuses: no or an unknown format → 400, unknown quiz → 404, quizzes:read → 403, no credential → 401", async () => {
    expectProblem(await call(`/v1/quizzes/${quiz.id}/export`), 400, "validation_failed");
    expectProblem(await call(`/v1/quizzes/${quiz.id}/export?format=qti`), 400, "validation_failed");
    expectProblem(await call(`/v1/quizzes/${quiz.id}/export?format=gift&extra=1`), 400, "validation_failed");
    expectProblem(await call("/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4r/export?format=gift"), 404, "not_found");
    const reader = await seedApiKey(["quizzes:read"]);
    expectProblem(await exportOf("gift", reader.key), 403, "insufficient_scope");
    expectProblem(await call(`/v1/quizzes/${quiz.id}/export?format=gift`, { auth: false }), 401);
  });
});
