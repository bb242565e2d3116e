import { describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../../support/call";
import { createQuiz, createSubmission, createUser, grade, MISSING_QUIZ, MISSING_SUB } from "./fixtures";

describe("GET /v1/submissions/{id}", () => {
  it("→ 200, open and then graded", async () => {
    const quiz = await createQuiz();
    const created = await createSubmission(quiz.id, await createUser(), [{ question_id: quiz.questionIds[2], response: true }]);
    const open = await call(`/v1/submissions/${created.id}`);
    expect(open.status).toBe(200);
    // The read adds each presented question as the caller sees it (an admin: with its key).
    const questions = await call(`/v1/quizzes/${quiz.id}/questions?limit=100`);
    const withQuestions = {
      ...created,
      questions: created.questions!.map((p) => {
        const q = questions.json.questions.find((x) => x.id === p.question_id)!;
        const { id, quiz_id, position, title, tags, feedback, explanation, pool, version, created_at, updated_at, ...shown } = q;
        return { ...p, question: shown };
      }),
    };
    expect(open.json).toEqual(withQuestions);
    const graded = await grade(created.id);
    const after = await call(`/v1/submissions/${created.id}`);
    expect(after.json).toEqual({
      ...withQuestions,
      status: "graded",
      score: 20,
      graded_by: "request",
      points_earned: graded.points_earned,
      points_possible: graded.points_possible,
      feedback: graded.feedback,
      updated_at: graded.graded_at,
      graded_at: graded.graded_at,
    });
  });

  it("unknown, malformed or another kind's id → 404", async () => {
    expectProblem(await call(`/v1/submissions/${MISSING_SUB}`), 404, "not_found");
    expectProblem(await call("/v1/submissions/sub_nope"), 404, "not_found");
    expectProblem(await call(`/v1/submissions/${MISSING_QUIZ}`), 404, "not_found");
    expectProblem(await call(`/v1/submissions/${MISSING_SUB.toUpperCase()}`), 404, "not_found");
  });
});

describe("GET /v1/submissions/{id}: questions[].question", () => {
  it("is each presented question as the credential sees it: the key only to quizzes:write, the list in the presented order", async () => {
    const quiz = await createQuiz({ shuffle_options: true, shuffle_questions: true });
    const created = await createSubmission(quiz.id, await createUser());
    const reader = (await seedApiKey(["submissions:read"])).key;
    const res = await call(`/v1/submissions/${created.id}`, { auth: reader });
    expect(res.status, res.text).toBe(200);
    const presented = res.json.questions!;
    expect(presented.map((p) => p.question_id)).toEqual(created.questions!.map((p) => p.question_id));
    for (const p of presented) {
      const q = p.question as Record<string, unknown>;
      for (const key of ["correct_option_id", "correct_option_ids", "correct", "accepted_answers", "correct_value", "tolerance"])
        expect(q, key).not.toHaveProperty(key);
      if (p.option_order) expect((q.options as { id: string }[]).map((o) => o.id)).toEqual(p.option_order);
    }
    const author = await call(`/v1/submissions/${created.id}`);
    const single = author.json.questions!.find((p) => p.question?.type === "single_choice")!;
    expect(single.question).toHaveProperty("correct_option_id", "b");
  });
});
