import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { addQuestion, createQuiz, listAll, MISSING_QUESTION_ID, promptsInOrder, tf } from "./fixtures";

describe("DELETE /v1/quizzes/{id}/questions/{question_id}", () => {
  it("→ 204, then 404; the others close the gap", async () => {
    const quizId = await createQuiz([tf("A"), tf("B"), tf("C"), tf("D")]);
    const [, b] = await listAll(quizId);
    const res = await call(`/v1/quizzes/${quizId}/questions/${b!.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expectProblem(await call(`/v1/quizzes/${quizId}/questions/${b!.id}`), 404, "not_found");
    expect(await promptsInOrder(quizId)).toEqual(["A", "C", "D"]);
    expect((await call(`/v1/quizzes/${quizId}`)).json.questions).toBe(3);
    expectProblem(await call(`/v1/quizzes/${quizId}/questions/${b!.id}`, { method: "DELETE" }), 404, "not_found");
  });

  it("insert, move and delete in sequence keep positions 1..n", async () => {
    const quizId = await createQuiz([tf("A"), tf("B"), tf("C")]);
    const x = await addQuestion(quizId, { ...tf("X"), position: 1 });
    await call(`/v1/quizzes/${quizId}/questions/${x.id}`, { method: "PATCH", body: { position: 4 } });
    const [a] = await listAll(quizId);
    await call(`/v1/quizzes/${quizId}/questions/${a!.id}`, { method: "DELETE" });
    await addQuestion(quizId, { ...tf("Y"), position: 2 });
    expect(await promptsInOrder(quizId)).toEqual(["B", "Y", "C", "X"]);
  });

  it("concurrent moves and deletes keep positions 1..n", async () => {
    for (let round = 0; round < 3; round++) {
      const quizId = await createQuiz(Array.from({ length: 8 }, (_, i) => tf(`Q${i}`)));
      const ids = (await listAll(quizId)).map((q) => q.id as string);
      const at = (i: number) => `/v1/quizzes/${quizId}/questions/${ids[i]}` as const;
      const results = await Promise.all([
        call(at(0), { method: "PATCH", body: { position: 8 } }),
        call(at(7), { method: "PATCH", body: { position: 1 } }),
        call(at(3), { method: "PATCH", body: { position: 6 } }),
        call(at(4), { method: "DELETE" }),
        call(at(2), { method: "DELETE" }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 204, 204]);
      const all = await listAll(quizId);
      expect(all.map((q) => q.position)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(all.map((q) => q.prompt).sort()).toEqual(["Q0", "Q1", "Q3", "Q5", "Q6", "Q7"]);
      // The count the quizzes row keeps (triggers on questions) is the questions there are.
      expect((await call(`/v1/quizzes/${quizId}`)).json.questions).toBe(6);
    }
  });

  it("a concurrent second delete of the same question → 404, positions stay 1..n", async () => {
    const quizId = await createQuiz([tf("A"), tf("B"), tf("C")]);
    const [, b] = await listAll(quizId);
    const results = await Promise.all([1, 2].map(() => call(`/v1/quizzes/${quizId}/questions/${b!.id}`, { method: "DELETE" })));
    expect(results.map((r) => r.status).sort()).toEqual([204, 404]);
    expect(await promptsInOrder(quizId)).toEqual(["A", "C"]);
    expect((await call(`/v1/quizzes/${quizId}`)).json.questions).toBe(2);
  });

  it("a question of another quiz → 404, and it stays", async () => {
    const quizA = await createQuiz();
    const quizB = await createQuiz();
    const q = await addQuestion(quizA, tf("A's"));
    expectProblem(await call(`/v1/quizzes/${quizB}/questions/${q.id}`, { method: "DELETE" }), 404, "not_found");
    expect((await call(`/v1/quizzes/${quizA}/questions/${q.id}`)).status).toBe(200);
  });

  it("unknown question → 404", async () => {
    const quizId = await createQuiz();
    expectProblem(await call(`/v1/quizzes/${quizId}/questions/${MISSING_QUESTION_ID}`, { method: "DELETE" }), 404);
  });
});
