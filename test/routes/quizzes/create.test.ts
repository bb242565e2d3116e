import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { countRows, DEFAULT_SETTINGS, ISO_MS, QUIZ_ID, tf, unique } from "./fixtures";

describe("POST /v1/quizzes", () => {
  it("creates a quiz with defaults → 201, Location, full quiz object", async () => {
    const res = await call("/v1/quizzes", { body: { title: "Capitals" } });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toEqual({
      id: expect.stringMatching(QUIZ_ID),
      title: "Capitals",
      description: "",
      questions: 0,
      settings: DEFAULT_SETTINGS,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      question_ids: [],
    });
    expect(res.json.updated_at).toBe(res.json.created_at);
    expect(res.headers.get("location")).toBe(`/v1/quizzes/${res.json.id}`);
    const got = await call(res.headers.get("location") as `/v1/quizzes/${string}`);
    expect(got.status).toBe(200);
    const { question_ids: _, ...quiz } = res.json;
    expect(got.json).toEqual(quiz);
  });

  it("trims title and description", async () => {
    const res = await call("/v1/quizzes", { body: { title: "  Trimmed \n", description: "\t desc  " } });
    expect(res.status, res.text).toBe(201);
    expect(res.json.title).toBe("Trimmed");
    expect(res.json.description).toBe("desc");
  });

  it("takes settings; omitted settings take their defaults", async () => {
    const bands = [
      { min_score: 0, message: "Keep trying" },
      { min_score: 80, message: "Great" },
    ];
    const res = await call("/v1/quizzes", { body: { title: "Set", settings: { max_attempts: 3, feedback_bands: bands } } });
    expect(res.status, res.text).toBe(201);
    expect(res.json.settings).toEqual({ ...DEFAULT_SETTINGS, max_attempts: 3, feedback_bands: bands });
    const partial = await call("/v1/quizzes", { body: { title: "Set", settings: { show_correct_answers: false } } });
    expect(partial.json.settings).toEqual({
      ...DEFAULT_SETTINGS,
      max_attempts: null,
      feedback_bands: [],
      show_correct_answers: "never",
    });
  });

  it("creates inline questions in order; `questions` is their integer count", async () => {
    const res = await call("/v1/quizzes", {
      body: {
        title: "Inline",
        questions: [
          tf("First"),
          { type: "numeric", prompt: "Second", correct_value: 4 },
          { type: "single_choice", prompt: "Third", options: [{ text: "A" }, { text: "B" }], correct_option_id: "b" },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.questions).toBe(3);
    const listed = await call(`/v1/quizzes/${res.json.id}/questions`);
    expect(listed.json.questions.map((q) => [q.prompt, q.position])).toEqual([
      ["First", 1],
      ["Second", 2],
      ["Third", 3],
    ]);
    // The answer names the questions it created, in their order.
    expect(res.json.question_ids).toEqual(listed.json.questions.map((q) => q.id));
  });

  it("records quiz.created carrying the quiz exactly as the 201 answered it, question_ids included", async () => {
    for (const body of [
      { title: unique("Event") },
      {
        title: unique("Event"),
        description: "With questions.",
        settings: { max_attempts: 2, show_correct_answers: true, time_limit_seconds: 600 },
        questions: [tf("One?"), tf("Two?")],
      },
    ]) {
      const res = await call("/v1/quizzes", { body });
      expect(res.status, res.text).toBe(201);
      const row = await env.DB.prepare(
        "SELECT data FROM events WHERE type = 'quiz.created' AND json_extract(data, '$.object.id') = ?",
      )
        .bind(res.json.id)
        .first<{ data: string }>();
      expect(JSON.parse(row!.data).object).toEqual(res.json);
    }
  });

  it("an invalid inline question → 400 naming questions[2]…, and no quiz is left behind", async () => {
    const title = unique("Atomic");
    const questionsBefore = await countRows("SELECT count(*) AS n FROM questions");
    const res = await call("/v1/quizzes", {
      body: {
        title,
        questions: [
          tf("ok 1"),
          tf("ok 2"),
          { type: "single_choice", prompt: "bad", options: [{ text: "A" }, { text: "B" }], correct_option_id: "z" },
        ],
      },
    });
    const problem = expectProblem(res, 400, "validation_failed");
    expect(problem.errors?.length).toBeGreaterThan(0);
    for (const error of problem.errors ?? []) expect(error.path).toMatch(/^questions\[2\]\./);
    expect(problem.errors?.map((e) => e.path)).toContain("questions[2].correct_option_id");
    expect(await countRows("SELECT count(*) AS n FROM quizzes WHERE title = ?", title)).toBe(0);
    expect(await countRows("SELECT count(*) AS n FROM questions")).toBe(questionsBefore);
  });

  it("an inline question of an unknown type → 400 naming it", async () => {
    const title = unique("Unknown type");
    const res = await call("/v1/quizzes", { body: { title, questions: [tf(), { type: "drawing", prompt: "Why?" }] } });
    const problem = expectProblem(res, 400, "validation_failed");
    expect(problem.errors?.[0]?.path).toMatch(/^questions\[1\]/);
    expect(await countRows("SELECT count(*) AS n FROM quizzes WHERE title = ?", title)).toBe(0);
  });

  it("at most 200 inline questions: 201 → 400", async () => {
    const title = unique("Too many");
    const res = await call("/v1/quizzes", { body: { title, questions: Array.from({ length: 201 }, (_, i) => tf(`Q${i}`)) } });
    expect(expectProblem(res, 400, "validation_failed").errors?.[0]?.path).toBe("questions");
    expect(await countRows("SELECT count(*) AS n FROM quizzes WHERE title = ?", title)).toBe(0);
  });

  it("missing title → 400", async () => {
    const problem = expectProblem(await call("/v1/quizzes", { body: { description: "x" } }), 400, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toEqual(["title"]);
  });

  it("blank title (only whitespace) → 400", async () => {
    const problem = expectProblem(await call("/v1/quizzes", { body: { title: "   " } }), 400, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toEqual(["title"]);
  });

  it("title over 200 characters → 400; 200 after trimming is fine", async () => {
    expectProblem(await call("/v1/quizzes", { body: { title: "x".repeat(201) } }), 400, "validation_failed");
    const ok = await call("/v1/quizzes", { body: { title: ` ${"x".repeat(200)} ` } });
    expect(ok.status, ok.text).toBe(201);
  });

  it("description over 10 000 characters → 400", async () => {
    const problem = expectProblem(
      await call("/v1/quizzes", { body: { title: "Long", description: "d".repeat(10_001) } }),
      400,
      "validation_failed",
    );
    expect(problem.errors?.map((e) => e.path)).toEqual(["description"]);
    const ok = await call("/v1/quizzes", { body: { title: "Long", description: "d".repeat(10_000) } });
    expect(ok.status, ok.text).toBe(201);
  });

  it("unknown field → 400 naming it", async () => {
    const problem = expectProblem(await call("/v1/quizzes", { body: { title: "x", owner: "me" } }), 400);
    expect(problem.errors).toContainEqual({ path: "owner", message: expect.any(String) });
  });

  it("invalid settings → 400 naming the setting", async () => {
    const cases: [unknown, string][] = [
      [{ max_attempts: 0 }, "settings.max_attempts"],
      [{ max_attempts: 1.5 }, "settings.max_attempts"],
      [{ max_attempts: "3" }, "settings.max_attempts"],
      [{ show_correct_answers: "yes" }, "settings.show_correct_answers"],
      [{ feedback_bands: [{ min_score: 101, message: "x" }] }, "settings.feedback_bands[0].min_score"],
      [{ feedback_bands: [{ min_score: 50, message: "" }] }, "settings.feedback_bands[0].message"],
      [{ feedback_bands: [{ min_score: 50 }] }, "settings.feedback_bands[0].message"],
      [{ time_limit_seconds: 59 }, "settings.time_limit_seconds"],
      [{ available_from: "tomorrow" }, "settings.available_from"],
      [{ available_from: "2027-01-02T00:00:00Z", available_until: "2027-01-01T00:00:00Z" }, "settings.available_until"],
      [{ pools: [{ pool: "easy", pick: 0 }] }, "settings.pools[0].pick"],
      [{ pools: [{ pool: "easy", pick: 1 }] }, "settings.pools[0].pick"],
      [{ grading_policy: "best" }, "settings.grading_policy"],
    ];
    for (const [settings, path] of cases) {
      const problem = expectProblem(await call("/v1/quizzes", { body: { title: "S", settings } }), 400, "validation_failed");
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(settings),
      ).toContain(path);
    }
  });

  it("feedback_bands with a duplicate min_score → 400", async () => {
    const res = await call("/v1/quizzes", {
      body: {
        title: "Bands",
        settings: {
          feedback_bands: [
            { min_score: 50, message: "Half" },
            { min_score: 50, message: "Also half" },
          ],
        },
      },
    });
    const problem = expectProblem(res, 400, "validation_failed");
    expect(problem.errors?.[0]?.path).toBe("settings.feedback_bands");
  });
});
