import { describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../../helpers";

const SUB_ID = /^sub_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_QUIZ = "quiz_01kamz3f7c9n0p8s6e5vwx2y4r";
const MISSING_USER = "user_01kamz3f7c9n0p8s6e5vwx2y4r";
const MISSING_QUESTION = "qst_01kamz3f7c9n0p8s6e5vwx2y4r";
const MISSING_SUB = "sub_01kamz3f7c9n0p8s6e5vwx2y4r";

/** One question of each type, in this order: single, multiple, true/false, short text, numeric. */
const FIVE_TYPES = [
  { type: "single_choice", prompt: "2 + 2?", options: [{ text: "3" }, { text: "4" }], correct_option_id: "b" },
  {
    type: "multiple_choice",
    prompt: "Primes?",
    options: [{ text: "2" }, { text: "3" }, { text: "4" }],
    correct_option_ids: ["a", "b"],
  },
  { type: "true_false", prompt: "Water is wet?", correct: true },
  { type: "short_text", prompt: "Capital of Italy?", accepted_answers: ["Rome"] },
  { type: "numeric", prompt: "Pi?", correct_value: 3.14, tolerance: 0.01 },
];
/** A valid response to each of FIVE_TYPES, and responses of the wrong type. */
const VALID = ["b", ["a", "b"], true, "Rome", 3.14];
const WRONG_TYPE: unknown[][] = [
  [1, true, ["b"], null, { id: "b" }],
  ["a", [1], ["a", 2], true, null, { a: true }],
  ["true", 1, 0, null, ["true"]],
  [5, false, ["Rome"], null, { text: "Rome" }],
  ["3.14", true, [3.14], null, { value: 3 }],
];

async function createQuiz(settings: Record<string, unknown> = {}, questions: unknown[] = FIVE_TYPES) {
  const res = await call("/v1/quizzes", { body: { title: `Submissions ${crypto.randomUUID()}`, settings, questions } });
  expect(res.status, res.text).toBe(201);
  const list = await call(`/v1/quizzes/${res.json.id}/questions?limit=100`);
  expect(list.status, list.text).toBe(200);
  return { id: res.json.id as string, questionIds: (list.json.questions as { id: string }[]).map((q) => q.id) };
}

async function createUser() {
  const res = await call("/v1/users", { body: { name: "Student", email: `s-${crypto.randomUUID()}@example.com` } });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

const submit = (quizId: string, body: unknown, auth?: string | false) =>
  call(`/v1/quizzes/${quizId}/submissions`, { body, auth });

async function createSubmission(quizId: string, userId: string, answers: unknown[] = []) {
  const res = await submit(quizId, { user_id: userId, answers });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

async function grade(id: string) {
  const res = await call(`/v1/submissions/${id}/grade`, { method: "POST" });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** Every submission a list shows, following next_cursor with pages of `limit`. */
async function listAll(path: string, limit: number, query = "") {
  const pages: any[][] = [];
  let cursor: string | null = null;
  do {
    const res = await call(`${path}?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.submissions.length).toBeLessThanOrEqual(limit);
    if (res.json.next_cursor) expect(res.headers.get("link")).toContain('rel="next"');
    else expect(res.headers.get("link")).toBeNull();
    pages.push(res.json.submissions);
    cursor = res.json.next_cursor;
  } while (cursor);
  return pages;
}

const errorPaths = (res: Awaited<ReturnType<typeof call>>) =>
  expectProblem(res, 400, "validation_failed").errors?.map((e) => e.path);

describe("POST /v1/quizzes/{id}/submissions", () => {
  it("→ 201 with Location, an open submission numbered attempt 1", async () => {
    const quiz = await createQuiz();
    const userId = await createUser();
    const answers = [{ question_id: quiz.questionIds[0], response: "b" }];
    const res = await submit(quiz.id, { user_id: userId, answers });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(SUB_ID),
      quiz_id: quiz.id,
      user_id: userId,
      attempt: 1,
      status: "open",
      answers,
      score: null,
      deadline_at: null,
      graded_by: null,
      questions: quiz.questionIds.map((question_id, i) => ({ question_id, position: i + 1 })),
      points_earned: null,
      points_possible: null,
      feedback: null,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: res.json.created_at,
      graded_at: null,
    });
    expect(res.headers.get("location")).toBe(`/v1/submissions/${res.json.id}`);
    const got = await call(res.headers.get("location")!);
    expect(got.status).toBe(200);
    expect(got.json).toEqual(res.json);
  });

  it("answers are optional and default to none", async () => {
    const quiz = await createQuiz();
    const res = await submit(quiz.id, { user_id: await createUser() });
    expect(res.status, res.text).toBe(201);
    expect(res.json.answers).toEqual([]);
  });

  it("accepts a valid response to each of the five types", async () => {
    const quiz = await createQuiz();
    const answers = quiz.questionIds.map((question_id, i) => ({ question_id, response: VALID[i] }));
    const created = await createSubmission(quiz.id, await createUser(), answers);
    expect(created.answers).toEqual(answers);
  });

  it("numbers attempts per user and quiz: 1, 2, 3; another user or quiz starts at 1", async () => {
    const quiz = await createQuiz();
    const other = await createQuiz();
    const [alice, bob] = [await createUser(), await createUser()];
    const attempts = [];
    for (let i = 0; i < 3; i++) attempts.push((await createSubmission(quiz.id, alice)).attempt);
    expect(attempts).toEqual([1, 2, 3]);
    expect((await createSubmission(quiz.id, bob)).attempt).toBe(1);
    expect((await createSubmission(other.id, alice)).attempt).toBe(1);
    // Grading does not change the numbering: graded attempts are attempts too.
    const fourth = await createSubmission(quiz.id, alice);
    await grade(fourth.id);
    expect((await createSubmission(quiz.id, alice)).attempt).toBe(5);
  });

  it("unknown, malformed or missing user → 400 naming user_id", async () => {
    const quiz = await createQuiz();
    expect(errorPaths(await submit(quiz.id, { user_id: MISSING_USER }))).toEqual(["user_id"]);
    expect(errorPaths(await submit(quiz.id, { user_id: "user_nope" }))).toEqual(["user_id"]);
    expect(errorPaths(await submit(quiz.id, { user_id: MISSING_QUIZ }))).toEqual(["user_id"]);
    expect(errorPaths(await submit(quiz.id, {}))).toEqual(["user_id"]);
  });

  it("a deleted user → 400 naming user_id", async () => {
    const quiz = await createQuiz();
    const userId = await createUser();
    expect((await call(`/v1/users/${userId}`, { method: "DELETE" })).status).toBe(204);
    expect(errorPaths(await submit(quiz.id, { user_id: userId }))).toEqual(["user_id"]);
  });

  it("an unknown question id → 400 naming answers[i].question_id", async () => {
    const quiz = await createQuiz();
    const answers = [
      { question_id: quiz.questionIds[0], response: "b" },
      { question_id: MISSING_QUESTION, response: "b" },
    ];
    expect(errorPaths(await submit(quiz.id, { user_id: await createUser(), answers }))).toEqual(["answers[1].question_id"]);
    const malformed = [{ question_id: "q1", response: "b" }];
    expect(errorPaths(await submit(quiz.id, { user_id: await createUser(), answers: malformed }))).toEqual([
      "answers[0].question_id",
    ]);
  });

  it("a question of another quiz → 400 naming answers[i].question_id", async () => {
    const quiz = await createQuiz();
    const other = await createQuiz();
    const answers = [{ question_id: other.questionIds[0], response: "b" }];
    expect(errorPaths(await submit(quiz.id, { user_id: await createUser(), answers }))).toEqual(["answers[0].question_id"]);
  });

  it("a response of the wrong type, for each of the five types → 400 naming answers[i].response", async () => {
    const quiz = await createQuiz();
    const userId = await createUser();
    for (const [i, questionId] of quiz.questionIds.entries()) {
      // A valid answer to another question first, so the index in the path is checked too.
      const other = (i + 1) % quiz.questionIds.length;
      for (const response of WRONG_TYPE[i]!) {
        const answers = [
          { question_id: quiz.questionIds[other], response: VALID[other] },
          { question_id: questionId, response },
        ];
        const res = await submit(quiz.id, { user_id: userId, answers });
        expect(errorPaths(res), `${FIVE_TYPES[i]!.type} ← ${JSON.stringify(response)}`).toEqual(["answers[1].response"]);
      }
    }
    // A missing response is no response of the question's type either.
    const res = await submit(quiz.id, { user_id: userId, answers: [{ question_id: quiz.questionIds[2] }] });
    expect(errorPaths(res)).toEqual(["answers[0].response"]);
    // Nothing was created by any of them.
    expect((await call(`/v1/quizzes/${quiz.id}/submissions`)).json.submissions).toEqual([]);
  });

  it("the same question answered twice → 400 naming the second answer", async () => {
    const quiz = await createQuiz();
    const answers = [
      { question_id: quiz.questionIds[2], response: true },
      { question_id: quiz.questionIds[0], response: "a" },
      { question_id: quiz.questionIds[2], response: false },
    ];
    expect(errorPaths(await submit(quiz.id, { user_id: await createUser(), answers }))).toEqual(["answers[2].question_id"]);
  });

  it("an unknown field, at the top or in an answer → 400 naming it", async () => {
    const quiz = await createQuiz();
    const userId = await createUser();
    expect(errorPaths(await submit(quiz.id, { user_id: userId, status: "graded" }))).toEqual(["status"]);
    const answers = [{ question_id: quiz.questionIds[2], response: true, correct: true }];
    expect(errorPaths(await submit(quiz.id, { user_id: userId, answers }))).toEqual(["answers[0].correct"]);
    expect(errorPaths(await submit(quiz.id, { user_id: userId, answers: "all" }))).toEqual(["answers"]);
  });

  it("unknown or malformed quiz → 404", async () => {
    const userId = await createUser();
    expectProblem(await submit(MISSING_QUIZ, { user_id: userId }), 404, "not_found");
    expectProblem(await submit("quiz_nope", { user_id: userId }), 404, "not_found");
    expectProblem(await submit(MISSING_USER, { user_id: userId }), 404, "not_found");
  });

  it("max_attempts is enforced → 409 attempt_limit_reached, per user", async () => {
    const quiz = await createQuiz({ max_attempts: 2 });
    const [alice, bob] = [await createUser(), await createUser()];
    const first = await createSubmission(quiz.id, alice);
    await grade(first.id);
    await createSubmission(quiz.id, alice);
    expectProblem(await submit(quiz.id, { user_id: alice }), 409, "attempt_limit_reached");
    expect((await createSubmission(quiz.id, bob)).attempt).toBe(1);
    const listed = await call(`/v1/users/${alice}/submissions`);
    expect(listed.json.submissions.map((s: any) => s.attempt)).toEqual([1, 2]);
  });

  it("concurrent submissions racing for the last attempt: exactly one 201", async () => {
    const quiz = await createQuiz({ max_attempts: 2 });
    for (let round = 0; round < 4; round++) {
      const userId = await createUser();
      await createSubmission(quiz.id, userId);
      const racers = round % 2 === 0 ? 2 : 6;
      const results = await Promise.all(Array.from({ length: racers }, () => submit(quiz.id, { user_id: userId })));
      const won = results.filter((r) => r.status === 201);
      expect(won, results.map((r) => r.status).join(",")).toHaveLength(1);
      expect(won[0]!.json.attempt).toBe(2);
      for (const lost of results.filter((r) => r.status !== 201)) expectProblem(lost, 409, "attempt_limit_reached");
      const listed = await call(`/v1/users/${userId}/submissions`);
      expect(listed.json.submissions).toHaveLength(2);
    }
  });
});

describe("PUT /v1/submissions/{id}/answers", () => {
  const put = (id: string, body: unknown, auth?: string) => call(`/v1/submissions/${id}/answers`, { method: "PUT", body, auth });

  it("replaces the answers while the submission is open", async () => {
    const quiz = await createQuiz();
    const created = await createSubmission(quiz.id, await createUser(), [{ question_id: quiz.questionIds[0], response: "a" }]);
    const answers = [
      { question_id: quiz.questionIds[3], response: "Rome" },
      { question_id: quiz.questionIds[0], response: "b" },
    ];
    const res = await put(created.id, { answers });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ ...created, answers, updated_at: expect.stringMatching(ISO_MS) });
    expect(res.json.updated_at >= created.updated_at).toBe(true);
    expect((await call(`/v1/submissions/${created.id}`)).json).toEqual(res.json);
    // An empty list clears them.
    const cleared = await put(created.id, { answers: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.json.answers).toEqual([]);
  });

  it("after grading → 409 submission_graded, and the answers stay", async () => {
    const quiz = await createQuiz();
    const answers = [{ question_id: quiz.questionIds[2], response: false }];
    const created = await createSubmission(quiz.id, await createUser(), answers);
    await grade(created.id);
    expectProblem(
      await put(created.id, { answers: [{ question_id: quiz.questionIds[2], response: true }] }),
      409,
      "submission_graded",
    );
    const got = await call(`/v1/submissions/${created.id}`);
    expect(got.json.answers).toEqual(answers);
    expect(got.json.status).toBe("graded");
  });

  it("invalid answers → 400 and nothing changes", async () => {
    const quiz = await createQuiz();
    const other = await createQuiz();
    const created = await createSubmission(quiz.id, await createUser(), [{ question_id: quiz.questionIds[4], response: 3 }]);
    const cases: [unknown, string][] = [
      [{ answers: [{ question_id: quiz.questionIds[4], response: "3.14" }] }, "answers[0].response"],
      [{ answers: [{ question_id: MISSING_QUESTION, response: 1 }] }, "answers[0].question_id"],
      [{ answers: [{ question_id: other.questionIds[4], response: 1 }] }, "answers[0].question_id"],
      [
        {
          answers: [
            { question_id: quiz.questionIds[4], response: 1 },
            { question_id: quiz.questionIds[4], response: 2 },
          ],
        },
        "answers[1].question_id",
      ],
      [{ answers: [{ question_id: quiz.questionIds[1], response: "a" }] }, "answers[0].response"],
      [{ answers: [], user_id: MISSING_USER }, "user_id"],
      [{}, "answers"],
    ];
    for (const [body, path] of cases) expect(errorPaths(await put(created.id, body)), JSON.stringify(body)).toEqual([path]);
    expect((await call(`/v1/submissions/${created.id}`)).json).toEqual(created);
  });

  it("unknown or malformed submission → 404", async () => {
    expectProblem(await put(MISSING_SUB, { answers: [] }), 404, "not_found");
    expectProblem(await put("sub_nope", { answers: [] }), 404, "not_found");
  });
});

describe("GET /v1/submissions/{id}", () => {
  it("→ 200, open and then graded", async () => {
    const quiz = await createQuiz();
    const created = await createSubmission(quiz.id, await createUser(), [{ question_id: quiz.questionIds[2], response: true }]);
    const open = await call(`/v1/submissions/${created.id}`);
    expect(open.status).toBe(200);
    expect(open.json).toEqual(created);
    const graded = await grade(created.id);
    const after = await call(`/v1/submissions/${created.id}`);
    expect(after.json).toEqual({
      ...created,
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

describe("GET /v1/quizzes/{id}/submissions", () => {
  it("pages with limit and cursor, oldest first, with Link; every submission exactly once", async () => {
    const quiz = await createQuiz();
    const users = [await createUser(), await createUser()];
    const created = [];
    for (let i = 0; i < 7; i++) created.push(await createSubmission(quiz.id, users[i % 2]!));
    const pages = await listAll(`/v1/quizzes/${quiz.id}/submissions`, 3);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(created);
    // A limit that divides the total exactly ends with next_cursor null, not an empty page.
    expect((await listAll(`/v1/quizzes/${quiz.id}/submissions`, 7)).map((p) => p.length)).toEqual([7]);
    const first = await call(`/v1/quizzes/${quiz.id}/submissions?limit=3`);
    const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.get("link") ?? "");
    expect(link).not.toBeNull();
    const next = await call(link![1]!);
    expect(next.json.submissions).toEqual(created.slice(3, 6));
  });

  it("filters by status", async () => {
    const quiz = await createQuiz();
    const userId = await createUser();
    const subs = [];
    for (let i = 0; i < 5; i++) subs.push(await createSubmission(quiz.id, userId));
    for (const i of [1, 3]) await grade(subs[i]!.id);
    const graded = (await listAll(`/v1/quizzes/${quiz.id}/submissions`, 1, "&status=graded")).flat();
    expect(graded.map((s) => s.id)).toEqual([subs[1]!.id, subs[3]!.id]);
    expect(graded.every((s) => s.status === "graded" && typeof s.score === "number")).toBe(true);
    const open = (await listAll(`/v1/quizzes/${quiz.id}/submissions`, 2, "&status=open")).flat();
    expect(open.map((s) => s.id)).toEqual([subs[0]!.id, subs[2]!.id, subs[4]!.id]);
    expect(errorPaths(await call(`/v1/quizzes/${quiz.id}/submissions?status=closed`))).toEqual(["query.status"]);
  });

  it("a quiz without submissions → an empty page", async () => {
    const quiz = await createQuiz();
    const res = await call(`/v1/quizzes/${quiz.id}/submissions`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ submissions: [], next_cursor: null });
  });

  it("bad limit or cursor → 400", async () => {
    const quiz = await createQuiz();
    for (const query of ["limit=0", "limit=101", "limit=abc", "cursor=nope", "cursor=", "page=2"])
      expectProblem(await call(`/v1/quizzes/${quiz.id}/submissions?${query}`), 400, "validation_failed");
  });

  it("unknown or malformed quiz → 404", async () => {
    expectProblem(await call(`/v1/quizzes/${MISSING_QUIZ}/submissions`), 404, "not_found");
    expectProblem(await call("/v1/quizzes/nope/submissions"), 404, "not_found");
  });
});

describe("GET /v1/users/{id}/submissions", () => {
  it("lists the user's submissions to every quiz, paged and filtered", async () => {
    const [q1, q2] = [await createQuiz(), await createQuiz()];
    const [userId, other] = [await createUser(), await createUser()];
    const mine = [];
    for (let i = 0; i < 5; i++) {
      mine.push(await createSubmission(i % 2 ? q2.id : q1.id, userId));
      await createSubmission(q1.id, other);
    }
    await grade(mine[0]!.id);
    const all = (await listAll(`/v1/users/${userId}/submissions`, 2)).flat();
    expect(all.map((s) => s.id)).toEqual(mine.map((s) => s.id));
    const graded = (await listAll(`/v1/users/${userId}/submissions`, 2, "&status=graded")).flat();
    expect(graded.map((s) => s.id)).toEqual([mine[0]!.id]);
    const open = (await listAll(`/v1/users/${userId}/submissions`, 3, "&status=open")).flat();
    expect(open.map((s) => s.id)).toEqual(mine.slice(1).map((s) => s.id));
  });

  it("a user without submissions → an empty page", async () => {
    const res = await call(`/v1/users/${await createUser()}/submissions`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ submissions: [], next_cursor: null });
  });

  it("unknown, malformed or deleted user → 404, whatever the filter", async () => {
    expectProblem(await call(`/v1/users/${MISSING_USER}/submissions`), 404, "not_found");
    expectProblem(await call("/v1/users/nope/submissions"), 404, "not_found");
    const quiz = await createQuiz();
    const userId = await createUser();
    await grade((await createSubmission(quiz.id, userId)).id);
    expect((await call(`/v1/users/${userId}`, { method: "DELETE" })).status).toBe(204);
    for (const query of ["", "?status=graded", "?status=open"])
      expectProblem(await call(`/v1/users/${userId}/submissions${query}`), 404, "not_found");
    // The quiz still lists the anonymised submission.
    expect((await call(`/v1/quizzes/${quiz.id}/submissions`)).json.submissions).toHaveLength(1);
  });
});

describe("submission scopes", () => {
  it("submissions:read can read but not create, answer or grade → 403 insufficient_scope", async () => {
    const { key } = await seedApiKey(["submissions:read"]);
    const quiz = await createQuiz();
    const userId = await createUser();
    const sub = await createSubmission(quiz.id, userId);
    const denied = [
      await submit(quiz.id, { user_id: userId }, key),
      await call(`/v1/submissions/${sub.id}/answers`, { method: "PUT", body: { answers: [] }, auth: key }),
      await call(`/v1/submissions/${sub.id}/grade`, { method: "POST", auth: key }),
    ];
    for (const res of denied) {
      expectProblem(res, 403, "insufficient_scope");
      expect(res.headers.get("www-authenticate")).toContain('scope="submissions:write"');
    }
    expect((await call(`/v1/submissions/${sub.id}`)).json.status).toBe("open");
    for (const path of [`/v1/submissions/${sub.id}`, `/v1/quizzes/${quiz.id}/submissions`, `/v1/users/${userId}/submissions`])
      expect((await call(path, { auth: key })).status, path).toBe(200);
    await grade(sub.id);
    expect((await call(`/v1/submissions/${sub.id}/results`, { auth: key })).status).toBe(200);
  });

  it("submissions:write can create, answer and grade but not read → 403 insufficient_scope", async () => {
    const { key } = await seedApiKey(["submissions:write"]);
    const quiz = await createQuiz();
    const userId = await createUser();
    const created = await submit(quiz.id, { user_id: userId }, key);
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as string;
    const put = await call(`/v1/submissions/${id}/answers`, { method: "PUT", body: { answers: [] }, auth: key });
    expect(put.status, put.text).toBe(200);
    const graded = await call(`/v1/submissions/${id}/grade`, { method: "POST", auth: key });
    expect(graded.status, graded.text).toBe(200);
    for (const path of [
      `/v1/submissions/${id}/results`,
      `/v1/submissions/${id}`,
      `/v1/quizzes/${quiz.id}/submissions`,
      `/v1/users/${userId}/submissions`,
    ]) {
      const res = await call(path, { auth: key });
      expectProblem(res, 403, "insufficient_scope");
      expect(res.headers.get("www-authenticate")).toContain('scope="submissions:read"');
    }
  });

  it("no credential → 401", async () => {
    const quiz = await createQuiz();
    expectProblem(await submit(quiz.id, { user_id: MISSING_USER }, false), 401, "unauthorized");
    expectProblem(await call(`/v1/submissions/${MISSING_SUB}/grade`, { method: "POST", auth: false }), 401, "unauthorized");
    expectProblem(await call(`/v1/submissions/${MISSING_SUB}/results`, { auth: false }), 401, "unauthorized");
  });
});
