import { describe, expect, it } from "vitest";
import { ANSWER_ROW_BUDGET, answerRowBytes } from "../../../src/domain/answers";
import { call } from "../../support/call";
import { eventsAbout, footprint, imported, questionsOf } from "./helpers";

/**
 * POST /v1/imports?quiz_id=…: the questions go after the quiz's last, while the quiz has room for
 * 200 and its answers fit a submission's row; the others are skipped with the reason, in source
 * order. The quiz keeps its title; no quiz.created, one question.created per question.
 */

const tf = (i: number) => ({ type: "true_false", prompt: `Statement ${i}`, correct: true });
const essay = (i: number) => ({ type: "essay", prompt: `Essay ${i}` });
/** GIFT true/false questions with titles, one a block. */
const giftStatements = (n: number) =>
  Array.from({ length: n }, (_, i) => `::S${i + 1}:: Statement ${i + 1} is true. {T}`).join("\n\n");

async function quizWith(questions: unknown[]) {
  const res = await call("/v1/quizzes", { body: { title: `Append ${crypto.randomUUID()}`, questions } });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: string; title: string; question_ids: string[] };
}

describe("POST /v1/imports?quiz_id=", () => {
  it("appends after the quiz's questions, keeps its title, emits question.created only", async () => {
    const quiz = await quizWith([tf(1), tf(2)]);
    const job = await imported(giftStatements(3), "text/plain", `quiz_id=${quiz.id}`);
    expect(job.status).toBe("succeeded");
    expect(job.quiz_id).toBe(quiz.id);
    expect(job.result).toMatchObject({ quiz_id: quiz.id, items_total: 3, imported: 3, skipped: 0 });
    const questions = await questionsOf(quiz.id);
    expect(questions.map((q) => [q.position, q.title])).toEqual([
      [1, null],
      [2, null],
      [3, "S1"],
      [4, "S2"],
      [5, "S3"],
    ]);
    expect(job.result!.report.map((e) => e.question_id)).toEqual(questions.slice(2).map((q) => q.id));
    const got = await call(`/v1/quizzes/${quiz.id}`);
    expect(got.json).toMatchObject({ title: quiz.title, questions: 5 });
    expect(await eventsAbout("quiz.created", (o) => o.id === quiz.id)).toHaveLength(1);
    const created = await eventsAbout("question.created", (o) => o.quiz_id === quiz.id);
    expect(created.map((e) => e.data.object.position).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("fills the quiz up to 200 questions: the rest are skipped, in source order", async () => {
    const quiz = await quizWith(Array.from({ length: 198 }, (_, i) => tf(i)));
    const job = await imported(giftStatements(4), "text/plain", `quiz_id=${quiz.id}`);
    expect(job.result!.report.map((e) => [e.source_id, e.status, e.notes])).toEqual([
      ["S1", "imported", []],
      ["S2", "imported", []],
      ["S3", "skipped", ["Skipped: over 200 questions in the quiz."]],
      ["S4", "skipped", ["Skipped: over 200 questions in the quiz."]],
    ]);
    expect((await call(`/v1/quizzes/${quiz.id}`)).json.questions).toBe(200);
  });

  it("a full quiz takes nothing: the job succeeds with every item skipped and writes nothing", async () => {
    const quiz = await quizWith(Array.from({ length: 200 }, (_, i) => tf(i)));
    const before = await footprint();
    const job = await imported(giftStatements(2), "text/plain", `quiz_id=${quiz.id}`);
    expect(job.result).toMatchObject({ quiz_id: null, imported: 0, skipped: 2 });
    expect(await footprint()).toEqual(before);
  });

  it("skips a question whose answers would overflow a submission's row, and goes on with smaller ones", async () => {
    const perEssay = answerRowBytes({ id: "x", type: "essay", points: 1, feedback: {} });
    const fit = Math.floor(ANSWER_ROW_BUDGET / perEssay);
    const quiz = await quizWith(Array.from({ length: fit - 1 }, (_, i) => essay(i)));
    const gift = "::E1:: Explain one thing. {}\n\n::E2:: Explain another. {}\n\n::T:: The sky is blue. {T}";
    const job = await imported(gift, "text/plain", `quiz_id=${quiz.id}`);
    const used = fit * perEssay;
    const tfFits =
      used + answerRowBytes({ id: "x", type: "true_false", points: 1, feedback: {}, correct: true }) <= ANSWER_ROW_BUDGET;
    expect(job.result!.report.map((e) => [e.source_id, e.status])).toEqual([
      ["E1", "imported"],
      ["E2", "skipped"],
      ["T", tfFits ? "imported" : "skipped"],
    ]);
    expect(job.result!.report[1]!.notes[0]).toMatch(/submission's row/);
    expect((await call(`/v1/quizzes/${quiz.id}`)).json.questions).toBe(fit + (tfFits ? 1 : 0));
  });

  it("a question the API's own schema refuses is skipped with the schema's reason", async () => {
    // Escaped braces in GIFT are text: "{{x}}" then reads as a marker that names no blank.
    const gift = "::B:: Paris, \\{\\{x\\}\\} is {=Paris} the capital.\n\n::M:: Paris {=Paris} is nice.";
    const job = await imported(gift, "text/plain", "format=gift");
    expect(job.result!.report.map((e) => [e.source_id, e.status, e.type])).toEqual([
      ["B", "skipped", "fill_in_blanks"],
      ["M", "imported", "fill_in_blanks"],
    ]);
    expect(job.result!.report[0]!.notes).toEqual([
      "Skipped: the API refuses the question it would become (text: The marker {{x}} names no blank).",
    ]);
  });
});
