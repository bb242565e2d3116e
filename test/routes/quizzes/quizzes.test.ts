import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../helpers";

const QUIZ_ID = /^quiz_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_QUIZ = "/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4r";
const DEFAULT_SETTINGS = {
  max_attempts: null,
  feedback_bands: [],
  show_correct_answers: "after_last_attempt",
  available_from: null,
  available_until: null,
  time_limit_seconds: null,
  shuffle_questions: false,
  shuffle_options: false,
  pools: [],
  grading_policy: "highest",
};

const tf = (prompt = "Is the sky blue?") => ({ type: "true_false", prompt, correct: true });
const unique = (label: string) => `${label} ${crypto.randomUUID()}`;

async function createQuiz(body: Record<string, unknown> = {}) {
  const res = await call("/v1/quizzes", { body: { title: unique("Quiz"), ...body } });
  expect(res.status, res.text).toBe(201);
  // The quiz as the API shows it everywhere; only the create answer adds question_ids.
  const { question_ids: _, ...quiz } = res.json;
  return quiz;
}

async function countRows(sql: string, ...params: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

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
    const got = await call(res.headers.get("location")!);
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
    expect(listed.json.questions.map((q: any) => [q.prompt, q.position])).toEqual([
      ["First", 1],
      ["Second", 2],
      ["Third", 3],
    ]);
    // The answer names the questions it created, in their order.
    expect(res.json.question_ids).toEqual(listed.json.questions.map((q: any) => q.id));
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

describe("GET /v1/quizzes/{id}", () => {
  it("→ 200 with the question count", async () => {
    const quiz = await createQuiz({ description: "About", questions: [tf(), tf()] });
    const res = await call(`/v1/quizzes/${quiz.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ...quiz, questions: 2 });
  });

  it("the count follows questions added and deleted later", async () => {
    const quiz = await createQuiz();
    const added = await call(`/v1/quizzes/${quiz.id}/questions`, { body: tf() });
    expect(added.status, added.text).toBe(201);
    expect((await call(`/v1/quizzes/${quiz.id}`)).json.questions).toBe(1);
    await call(`/v1/quizzes/${quiz.id}/questions/${added.json.id}`, { method: "DELETE" });
    expect((await call(`/v1/quizzes/${quiz.id}`)).json.questions).toBe(0);
  });

  it("unknown id → 404", async () => {
    expectProblem(await call(MISSING_QUIZ), 404, "not_found");
  });

  it("malformed id → 404", async () => {
    expectProblem(await call("/v1/quizzes/quiz_123"), 404, "not_found");
  });

  it("wrong method → 405 with Allow", async () => {
    const quiz = await createQuiz();
    const res = await call(`/v1/quizzes/${quiz.id}`, { method: "PUT", body: { title: "x" } });
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")?.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "PATCH", "DELETE"]));
    expect(res.headers.get("allow")).not.toContain("PUT");
  });
});

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

describe("DELETE /v1/quizzes/{id}", () => {
  it("→ 204, then GET → 404, and its questions are gone", async () => {
    const quiz = await createQuiz({ questions: [tf(), tf()] });
    const res = await call(`/v1/quizzes/${quiz.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expectProblem(await call(`/v1/quizzes/${quiz.id}`), 404, "not_found");
    expectProblem(await call(`/v1/quizzes/${quiz.id}/questions`), 404, "not_found");
    expect(await countRows("SELECT count(*) AS n FROM questions WHERE quiz_id = ?", quiz.id)).toBe(0);
  });

  it("a second delete → 404", async () => {
    const quiz = await createQuiz();
    expect((await call(`/v1/quizzes/${quiz.id}`, { method: "DELETE" })).status).toBe(204);
    expectProblem(await call(`/v1/quizzes/${quiz.id}`, { method: "DELETE" }), 404, "not_found");
  });

  it("unknown id → 404", async () => {
    expectProblem(await call(MISSING_QUIZ, { method: "DELETE" }), 404, "not_found");
  });

  it("a quiz with submissions → 409, and it stays", async () => {
    const quiz = await createQuiz({ questions: [tf()] });
    const user = await call("/v1/users", { body: { name: "Taker", email: `taker-${crypto.randomUUID()}@example.com` } });
    expect(user.status, user.text).toBe(201);
    // Written straight to D1: this file tests quizzes, not the submissions endpoints.
    const now = new Date().toISOString();
    await env.DB.prepare(
      "INSERT INTO submissions (id, quiz_id, user_id, attempt, status, answers, created_at, updated_at) VALUES (?, ?, ?, 1, 'open', '[]', ?, ?)",
    )
      .bind("sub_01kamz3f7c9n0p8s6e5vwx2y4r", quiz.id, user.json.id, now, now)
      .run();
    expectProblem(await call(`/v1/quizzes/${quiz.id}`, { method: "DELETE" }), 409);
    expect((await call(`/v1/quizzes/${quiz.id}`)).status).toBe(200);
  });
});

describe("GET /v1/quizzes", () => {
  it("lists quizzes with their integer question count", async () => {
    const quiz = await createQuiz({ questions: [tf(), tf(), tf()] });
    const seen: any[] = [];
    let path: string | null = "/v1/quizzes?limit=100";
    while (path) {
      const res = await call(path);
      expect(res.status, res.text).toBe(200);
      seen.push(...res.json.quizzes);
      path = res.json.next_cursor ? `/v1/quizzes?limit=100&cursor=${res.json.next_cursor}` : null;
    }
    const listed = seen.find((q) => q.id === quiz.id);
    expect(listed).toEqual({ ...quiz, questions: 3 });
    expect(Number.isInteger(listed.questions)).toBe(true);
  });

  it("defaults to 20 per page", async () => {
    await Promise.all(Array.from({ length: 21 }, () => createQuiz()));
    const res = await call("/v1/quizzes");
    expect(res.status).toBe(200);
    expect(res.json.quizzes).toHaveLength(20);
    expect(typeof res.json.next_cursor).toBe("string");
  });

  it("walks 250 quizzes with ?limit=7 via next_cursor and Link, each exactly once, in creation order", async () => {
    // Created in chunks of 25: quizzes of one chunk are concurrent, chunks are in sequence.
    const chunks: string[][] = [];
    for (let c = 0; c < 10; c++) {
      const quizzes = await Promise.all(Array.from({ length: 25 }, (_, i) => createQuiz({ title: `Page ${c * 25 + i}` })));
      chunks.push(quizzes.map((q) => q.id));
    }
    const created = new Set(chunks.flat());
    expect(created.size).toBe(250);

    const walked: any[] = [];
    let path: string | null = "/v1/quizzes?limit=7";
    let viaLink = true;
    let pages = 0;
    while (path) {
      const res = await call(path);
      expect(res.status, res.text).toBe(200);
      pages++;
      expect(res.json.quizzes.length).toBeLessThanOrEqual(7);
      walked.push(...res.json.quizzes);
      const link = res.headers.get("link");
      if (res.json.next_cursor === null) {
        expect(link).toBeNull();
        path = null;
      } else {
        expect(res.json.quizzes).toHaveLength(7);
        expect(typeof res.json.next_cursor).toBe("string");
        const match = link?.match(/^<([^>]+)>; rel="next"$/);
        expect(match, `Link: ${link}`).toBeTruthy();
        const next = new URL(match![1]!, "http://quiz.test");
        expect(next.pathname).toBe("/v1/quizzes");
        expect(next.searchParams.get("cursor")).toBe(res.json.next_cursor);
        expect(next.searchParams.get("limit")).toBe("7");
        // Alternate between following the Link header and building the URL from next_cursor.
        path = viaLink
          ? `${next.pathname}${next.search}`
          : `/v1/quizzes?limit=7&cursor=${encodeURIComponent(res.json.next_cursor)}`;
        viaLink = !viaLink;
      }
    }
    const ids = walked.map((q) => q.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBe(Math.ceil(ids.length / 7) + (ids.length % 7 === 0 ? 1 : 0));
    // Oldest first: ids and creation times never go backwards.
    expect([...ids].sort()).toEqual(ids);
    for (let i = 1; i < walked.length; i++) expect(walked[i].created_at >= walked[i - 1].created_at).toBe(true);
    // Every quiz of ours is seen exactly once, and each chunk before the next.
    const ours = ids.filter((id) => created.has(id));
    expect(ours).toHaveLength(250);
    const chunkOf = new Map(chunks.flatMap((chunk, c) => chunk.map((id) => [id, c] as const)));
    const order = ours.map((id) => chunkOf.get(id)!);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  }, 60_000);

  it("the last page has next_cursor null and no Link header", async () => {
    const all = await call("/v1/quizzes?limit=100");
    let res = all;
    while (res.json.next_cursor) res = await call(`/v1/quizzes?limit=100&cursor=${res.json.next_cursor}`);
    expect(res.status).toBe(200);
    expect(res.json.next_cursor).toBeNull();
    expect(res.headers.get("link")).toBeNull();
  });

  it("limit=100 is allowed, limit=1 is allowed", async () => {
    await createQuiz();
    expect((await call("/v1/quizzes?limit=100")).json.quizzes.length).toBeLessThanOrEqual(100);
    const one = await call("/v1/quizzes?limit=1");
    expect(one.status).toBe(200);
    expect(one.json.quizzes).toHaveLength(1);
  });

  it("a limit outside 1–100 or not an integer → 400", async () => {
    for (const limit of ["0", "101", "abc", "-1", "2.5", ""]) {
      const problem = expectProblem(await call(`/v1/quizzes?limit=${limit}`), 400, "validation_failed");
      expect(problem.errors?.[0]?.path, `limit=${limit}`).toBe("query.limit");
    }
  });

  it("a bad cursor → 400", async () => {
    const userCursor = btoa(JSON.stringify({ v: 1, after: "user_01kamz3f7c9n0p8s6e5vwx2y4r" })).replace(/=+$/, "");
    const wrongVersion = btoa(JSON.stringify({ v: 2, after: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r" })).replace(/=+$/, "");
    for (const cursor of ["garbage", "!!!", "eyJ2IjoxfQ", userCursor, wrongVersion, "x".repeat(500)]) {
      const problem = expectProblem(await call(`/v1/quizzes?cursor=${encodeURIComponent(cursor)}`), 400, "validation_failed");
      expect(problem.errors?.[0]?.path, cursor).toBe("query.cursor");
    }
  });

  it("an unknown query parameter → 400 naming it", async () => {
    const problem = expectProblem(await call("/v1/quizzes?sort=title"), 400, "validation_failed");
    expect(problem.errors).toContainEqual({ path: "query.sort", message: expect.any(String) });
  });

  it("wrong method → 405 with Allow: GET, POST", async () => {
    const res = await call("/v1/quizzes", { method: "DELETE" });
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")?.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "POST"]));
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
