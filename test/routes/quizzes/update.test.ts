import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createQuiz, DEFAULT_SETTINGS, MISSING_QUIZ, tf } from "./fixtures";

describe("PATCH /v1/quizzes/{id}", () => {
  it("changes title and description (trimmed), keeps the rest, bumps updated_at", async () => {
    const quiz = await createQuiz({ description: "Old", questions: [tf()] });
    await new Promise((r) => setTimeout(r, 5));
    const res = await call(`/v1/quizzes/${quiz.id}`, { method: "PATCH", body: { title: "  New title ", description: " New " } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      id: quiz.id,
      title: "New title",
      description: "New",
      questions: 1,
      created_at: quiz.created_at,
    });
    expect(res.json.updated_at > quiz.updated_at).toBe(true);
    expect((await call(`/v1/quizzes/${quiz.id}`)).json).toEqual(res.json);
  });

  it("description can be cleared with an empty string", async () => {
    const quiz = await createQuiz({ description: "Something" });
    const res = await call(`/v1/quizzes/${quiz.id}`, { method: "PATCH", body: { description: "" } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.description).toBe("");
    expect(res.json.title).toBe(quiz.title);
  });

  it("merges settings: settings sent replace those, others keep their values", async () => {
    const bands = [{ min_score: 0, message: "Done" }];
    const quiz = await createQuiz({ settings: { max_attempts: 2, feedback_bands: bands, show_correct_answers: false } });
    const first = await call(`/v1/quizzes/${quiz.id}`, { method: "PATCH", body: { settings: { max_attempts: 5 } } });
    expect(first.status, first.text).toBe(200);
    expect(first.json.settings).toEqual({
      ...DEFAULT_SETTINGS,
      max_attempts: 5,
      feedback_bands: bands,
      show_correct_answers: "never",
    });
    const second = await call(`/v1/quizzes/${quiz.id}`, {
      method: "PATCH",
      body: { settings: { max_attempts: null, show_correct_answers: true } },
    });
    expect(second.json.settings).toEqual({
      ...DEFAULT_SETTINGS,
      max_attempts: null,
      feedback_bands: bands,
      show_correct_answers: "always",
    });
    const third = await call(`/v1/quizzes/${quiz.id}`, { method: "PATCH", body: { settings: { feedback_bands: [] } } });
    expect(third.json.settings).toEqual({
      ...DEFAULT_SETTINGS,
      max_attempts: null,
      feedback_bands: [],
      show_correct_answers: "always",
    });
    expect((await call(`/v1/quizzes/${quiz.id}`)).json.settings).toEqual(third.json.settings);
  });

  it("an empty patch changes nothing but updated_at", async () => {
    const quiz = await createQuiz({ settings: { max_attempts: 4 } });
    const res = await call(`/v1/quizzes/${quiz.id}`, { method: "PATCH", body: {} });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ title: quiz.title, description: quiz.description, settings: quiz.settings });
  });

  it("feedback_bands with a duplicate min_score → 400, nothing changes", async () => {
    const quiz = await createQuiz();
    const res = await call(`/v1/quizzes/${quiz.id}`, {
      method: "PATCH",
      body: {
        settings: {
          feedback_bands: [
            { min_score: 70, message: "a" },
            { min_score: 70, message: "b" },
          ],
        },
      },
    });
    expect(expectProblem(res, 400, "validation_failed").errors?.[0]?.path).toBe("settings.feedback_bands");
    expect((await call(`/v1/quizzes/${quiz.id}`)).json.settings).toEqual(DEFAULT_SETTINGS);
  });

  it("invalid fields → 400 naming them", async () => {
    const quiz = await createQuiz();
    const cases: [unknown, string][] = [
      [{ title: "" }, "title"],
      [{ title: "  " }, "title"],
      [{ title: null }, "title"],
      [{ title: "t".repeat(201) }, "title"],
      [{ description: 5 }, "description"],
      [{ settings: { max_attempts: 0 } }, "settings.max_attempts"],
      [{ settings: { extra: 1 } }, "settings.extra"],
      [{ questions: [] }, "questions"],
      [{ id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r" }, "id"],
    ];
    for (const [body, path] of cases) {
      const problem = expectProblem(await call(`/v1/quizzes/${quiz.id}`, { method: "PATCH", body }), 400, "validation_failed");
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await call(`/v1/quizzes/${quiz.id}`)).json).toEqual(quiz);
  });

  it("unknown id → 404", async () => {
    expectProblem(await call(MISSING_QUIZ, { method: "PATCH", body: { title: "x" } }), 404, "not_found");
  });
});

describe("PATCH /v1/quizzes/{id}, concurrently", () => {
  it("patches of different fields and settings do not undo each other", async () => {
    const quiz = await call("/v1/quizzes", { body: { title: "Before", settings: { max_attempts: 2 } } });
    const id = quiz.json.id;
    const answers = await Promise.all([
      call(`/v1/quizzes/${id}`, { method: "PATCH", body: { title: "After" } }),
      call(`/v1/quizzes/${id}`, { method: "PATCH", body: { description: "Described" } }),
      call(`/v1/quizzes/${id}`, { method: "PATCH", body: { settings: { show_correct_answers: false } } }),
      call(`/v1/quizzes/${id}`, {
        method: "PATCH",
        body: { settings: { feedback_bands: [{ min_score: 50, message: "Half" }] } },
      }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const after = await call(`/v1/quizzes/${id}`);
    expect(after.json).toMatchObject({
      title: "After",
      description: "Described",
      settings: { max_attempts: 2, show_correct_answers: "never", feedback_bands: [{ min_score: 50, message: "Half" }] },
    });
  });

  it("max_attempts: null makes attempts unlimited and stays in the settings", async () => {
    const quiz = await call("/v1/quizzes", { body: { title: "Limited", settings: { max_attempts: 1 } } });
    const res = await call(`/v1/quizzes/${quiz.json.id}`, { method: "PATCH", body: { settings: { max_attempts: null } } });
    expect(res.status).toBe(200);
    expect(res.json.settings).toEqual(DEFAULT_SETTINGS);
  });
});
