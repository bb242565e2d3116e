import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import {
  addQuestion,
  createQuiz,
  ISO_MS,
  listAll,
  MISSING_QUESTION_ID,
  MISSING_QUIZ_ID,
  promptsInOrder,
  single,
  tf,
} from "./fixtures";

describe("PATCH /v1/quizzes/{id}/questions/{question_id}", () => {
  const patch = (quizId: string, id: string, body: unknown) =>
    call(`/v1/quizzes/${quizId}/questions/${id}`, { method: "PATCH", body });

  it("merges: fields not sent keep their values", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, single({ points: 3, feedback: { correct: "Yes" }, explanation: "Paris is." }));
    await new Promise((r) => setTimeout(r, 5));
    const res = await patch(quizId, q.id, { prompt: " Capital city of France? " });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ ...q, prompt: "Capital city of France?", updated_at: expect.stringMatching(ISO_MS) });
    expect(res.json.updated_at > q.updated_at).toBe(true);
    expect((await call(`/v1/quizzes/${quizId}/questions/${q.id}`)).json).toEqual(res.json);
  });

  it("changes the key: new options and a correct id among them", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, single());
    const res = await patch(quizId, q.id, {
      options: [{ text: "Marseille" }, { id: "p", text: "Paris" }],
      correct_option_id: "p",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.options).toEqual([
      { id: "a", text: "Marseille" },
      { id: "p", text: "Paris" },
    ]);
    expect(res.json.correct_option_id).toBe("p");
  });

  it("revalidates the merged question: options without the correct id → 400, nothing changes", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, single({ correct_option_id: "c" }));
    const res = await patch(quizId, q.id, { options: [{ text: "Only A" }, { text: "Only B" }] });
    expect(expectProblem(res, 400, "validation_failed").errors?.map((e) => e.path)).toContain("correct_option_id");
    expect((await call(`/v1/quizzes/${quizId}/questions/${q.id}`)).json).toEqual(q);
  });

  it("revalidates: multiple_choice correct ids must stay among the options", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, {
      type: "multiple_choice",
      prompt: "Pick",
      options: [{ text: "A" }, { text: "B" }, { text: "C" }],
      correct_option_ids: ["a", "c"],
    });
    const res = await patch(quizId, q.id, { options: [{ text: "A" }, { text: "B" }] });
    expect(expectProblem(res, 400).errors?.map((e) => e.path)).toContain("correct_option_ids[1]");
  });

  it("changes the type: the old key goes, the new key comes from the patch", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, single({ points: 2, feedback: { incorrect: "No" } }));
    const res = await patch(quizId, q.id, { type: "true_false", correct: false });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      id: q.id,
      quiz_id: quizId,
      type: "true_false",
      content_format: "text",
      title: null,
      tags: [],
      prompt: q.prompt,
      points: 2,
      position: q.position,
      feedback: { incorrect: "No" },
      explanation: null,
      correct: false,
      pool: null,
      version: 2,
      created_at: q.created_at,
      updated_at: expect.stringMatching(ISO_MS),
    });
    const numeric = await patch(quizId, q.id, { type: "numeric", correct_value: 10, tolerance: 1 });
    expect(numeric.status, numeric.text).toBe(200);
    expect(numeric.json).toMatchObject({ type: "numeric", correct_value: 10, tolerance: 1 });
    expect(numeric.json).not.toHaveProperty("correct");
    expect(numeric.json).not.toHaveProperty("options");
  });

  it("a type change without the new type's key → 400 naming it, nothing changes", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, single());
    const res = await patch(quizId, q.id, { type: "short_text" });
    expect(expectProblem(res, 400, "validation_failed").errors?.map((e) => e.path)).toContain("accepted_answers");
    expect((await call(`/v1/quizzes/${quizId}/questions/${q.id}`)).json).toEqual(q);
  });

  it("a key field the type does not have → 400", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, tf("x"));
    const res = await patch(quizId, q.id, { accepted_answers: ["yes"] });
    expect(expectProblem(res, 400).errors?.map((e) => e.path)).toContain("accepted_answers");
  });

  it("explanation: null clears it", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, { ...tf("x"), explanation: "Because" });
    const res = await patch(quizId, q.id, { explanation: null });
    expect(res.status, res.text).toBe(200);
    expect(res.json.explanation).toBeNull();
  });

  it("invalid values → 400 naming them", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, single());
    for (const [body, path] of [
      [{ prompt: "" }, "prompt"],
      [{ points: 0 }, "points"],
      [{ type: "drawing" }, "type"],
      [{ position: 0 }, "position"],
      [{ position: "2" }, "position"],
      [{ quiz_id: MISSING_QUIZ_ID }, "quiz_id"],
      [{ id: MISSING_QUESTION_ID }, "id"],
    ] as [unknown, string][]) {
      const problem = expectProblem(await patch(quizId, q.id, body), 400, "validation_failed");
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await call(`/v1/quizzes/${quizId}/questions/${q.id}`)).json).toEqual(q);
  });

  it("moves a question down and up; positions stay 1..n", async () => {
    const quizId = await createQuiz([tf("A"), tf("B"), tf("C"), tf("D")]);
    const [a, , , d] = await listAll(quizId);
    const down = await patch(quizId, a!.id, { position: 3 });
    expect(down.status, down.text).toBe(200);
    expect(down.json.position).toBe(3);
    expect(await promptsInOrder(quizId)).toEqual(["B", "C", "A", "D"]);
    const up = await patch(quizId, d!.id, { position: 1 });
    expect(up.json.position).toBe(1);
    expect(await promptsInOrder(quizId)).toEqual(["D", "B", "C", "A"]);
    const same = await patch(quizId, d!.id, { position: 1, prompt: "D2" });
    expect(same.json.position).toBe(1);
    expect(await promptsInOrder(quizId)).toEqual(["D2", "B", "C", "A"]);
  });

  it("a position past the end moves the question last", async () => {
    const quizId = await createQuiz([tf("A"), tf("B"), tf("C")]);
    const [a] = await listAll(quizId);
    const res = await patch(quizId, a!.id, { position: 99 });
    expect(res.status, res.text).toBe(200);
    expect(res.json.position).toBe(3);
    expect(await promptsInOrder(quizId)).toEqual(["B", "C", "A"]);
  });

  it("an invalid patch with a position moves nothing", async () => {
    const quizId = await createQuiz([tf("A"), tf("B"), tf("C")]);
    const [a] = await listAll(quizId);
    expectProblem(await patch(quizId, a!.id, { position: 3, prompt: "" }), 400);
    expect(await promptsInOrder(quizId)).toEqual(["A", "B", "C"]);
  });

  it("a question of another quiz → 404, and it is unchanged", async () => {
    const quizA = await createQuiz();
    const quizB = await createQuiz();
    const q = await addQuestion(quizA, tf("A's"));
    expectProblem(await patch(quizB, q.id, { prompt: "hijacked" }), 404, "not_found");
    expect((await call(`/v1/quizzes/${quizA}/questions/${q.id}`)).json.prompt).toBe("A's");
  });

  it("unknown question → 404", async () => {
    const quizId = await createQuiz();
    expectProblem(await patch(quizId, MISSING_QUESTION_ID, { prompt: "x" }), 404, "not_found");
  });
});
