import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type AnswerOf, call, expectProblem, seedApiKey } from "../../support/call";
import { withoutQuestionViews } from "../submissions/fixtures";

/**
 * Attempts the server controls (docs/api.md), over HTTP: availability windows and deadlines at
 * their exact boundaries (the clock is frozen with vitest's fake Date, which the worker shares),
 * accommodations, pools and shuffling, grading policies and reveal policies per scope.
 */

afterEach(() => {
  vi.useRealTimers();
});

/** Freezes the clock of the test and the worker at `iso`. */
function at(iso: string | number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(iso));
}

const T0 = Date.parse("2031-03-01T09:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

const TRUE_FALSE = (n: number, pool?: string) =>
  Array.from({ length: n }, (_, i) => ({
    type: "true_false",
    prompt: `Statement ${i + 1}${pool ? ` of ${pool}` : ""}?`,
    correct: true,
    ...(pool ? { pool } : {}),
  }));

async function createQuiz(body: Record<string, unknown>) {
  const res = await call("/v1/quizzes", { body: { title: `Attempts ${crypto.randomUUID()}`, ...body } });
  expect(res.status, res.text).toBe(201);
  return { id: res.json.id as string, questionIds: res.json.question_ids as string[], settings: res.json.settings };
}

async function createUser() {
  const res = await call("/v1/users", { body: { name: "Ada", email: `${crypto.randomUUID()}@example.com` } });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

const submit = (quizId: string, userId: string, answers: unknown[] = []) =>
  call(`/v1/quizzes/${quizId}/submissions`, { body: { user_id: userId, answers } });

async function createSubmission(quizId: string, userId: string, answers: unknown[] = []) {
  const res = await submit(quizId, userId, answers);
  expect(res.status, res.text).toBe(201);
  return res.json;
}

const putAnswers = (id: string, answers: unknown[]) =>
  call(`/v1/submissions/${id}/answers`, { method: "PUT", body: { answers } });

async function grade(id: string) {
  const res = await call(`/v1/submissions/${id}/grade`, { method: "POST" });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

describe("availability window", () => {
  it("available_from is inclusive and available_until exclusive (409 quiz_not_available outside)", async () => {
    const quiz = await createQuiz({ settings: { available_from: iso(T0), available_until: iso(T0 + 3_600_000) } });
    const user = await createUser();
    at(T0 - 1);
    expectProblem(await submit(quiz.id, user), 409, "quiz_not_available");
    at(T0);
    expect((await submit(quiz.id, user)).status).toBe(201);
    at(T0 + 3_600_000 - 1);
    expect((await submit(quiz.id, user)).status).toBe(201);
    at(T0 + 3_600_000);
    expectProblem(await submit(quiz.id, user), 409, "quiz_not_available");
  });

  it("a window alone makes available_until every submission's deadline", async () => {
    const quiz = await createQuiz({ settings: { available_until: iso(T0 + 600_000) } });
    at(T0);
    const sub = await createSubmission(quiz.id, await createUser());
    expect(sub.deadline_at).toBe(iso(T0 + 600_000));
  });

  it("available_from at or after available_until → 400", async () => {
    for (const settings of [
      { available_from: iso(T0), available_until: iso(T0) },
      { available_from: iso(T0 + 1), available_until: iso(T0) },
    ]) {
      const res = await call("/v1/quizzes", { body: { title: "Backwards", settings } });
      expectProblem(res, 400, "validation_failed");
    }
    const quiz = await createQuiz({ settings: { available_until: iso(T0) } });
    expectProblem(
      await call(`/v1/quizzes/${quiz.id}`, { method: "PATCH", body: { settings: { available_from: iso(T0) } } }),
      400,
    );
  });
});

describe("deadlines", () => {
  it("deadline_at = created_at + time limit; answers up to it, 409 deadline_passed at it", async () => {
    const quiz = await createQuiz({ questions: TRUE_FALSE(2), settings: { time_limit_seconds: 60 } });
    at(T0);
    const sub = await createSubmission(quiz.id, await createUser());
    expect(sub.deadline_at).toBe(iso(T0 + 60_000));
    at(T0 + 60_000 - 1);
    const early = await putAnswers(sub.id, [{ question_id: quiz.questionIds[0], response: true }]);
    expect(early.status, early.text).toBe(200);
    at(T0 + 60_000);
    expectProblem(await putAnswers(sub.id, [{ question_id: quiz.questionIds[1], response: true }]), 409, "deadline_passed");
    // Grading after the deadline grades what was stored by then.
    const graded = await grade(sub.id);
    expect(graded.points_earned).toBe(1);
    const after = await call(`/v1/submissions/${sub.id}`);
    expect(after.json).toMatchObject({
      status: "graded",
      graded_by: "request",
      answers: [{ question_id: quiz.questionIds[0], response: true }],
    });
  });

  it("the earliest of the time limit and available_until; no limit and no window → null", async () => {
    const capped = await createQuiz({ settings: { time_limit_seconds: 3600, available_until: iso(T0 + 600_000) } });
    const open = await createQuiz({});
    at(T0);
    expect((await createSubmission(capped.id, await createUser())).deadline_at).toBe(iso(T0 + 600_000));
    expect((await createSubmission(open.id, await createUser())).deadline_at).toBeNull();
  });

  it("extra time extends the time limit, never available_until", async () => {
    const quiz = await createQuiz({ settings: { time_limit_seconds: 600, available_until: iso(T0 + 1_000_000) } });
    const [slow, slower, other] = [await createUser(), await createUser(), await createUser()];
    const accommodate = async (user: string, extra: number) => {
      const res = await call(`/v1/quizzes/${quiz.id}/accommodations/${user}`, {
        method: "PUT",
        body: { extra_time_seconds: extra },
      });
      expect(res.status, res.text).toBe(200);
    };
    await accommodate(slow, 300);
    await accommodate(slower, 3600);
    at(T0);
    expect((await createSubmission(quiz.id, other)).deadline_at).toBe(iso(T0 + 600_000));
    expect((await createSubmission(quiz.id, slow)).deadline_at).toBe(iso(T0 + 900_000));
    const capped = await createSubmission(quiz.id, slower);
    expect(capped.deadline_at).toBe(iso(T0 + 1_000_000));
    // The accommodated user writes after the others' limit, up to their own deadline.
    const extra = await createSubmission(quiz.id, slow);
    at(T0 + 899_999);
    expect((await putAnswers(extra.id, [])).status).toBe(200);
    at(T0 + 900_000);
    expectProblem(await putAnswers(extra.id, []), 409, "deadline_passed");
  });

  it("extra attempts add to max_attempts (409 attempt_limit_reached beyond)", async () => {
    const quiz = await createQuiz({ settings: { max_attempts: 1 } });
    const [user, other] = [await createUser(), await createUser()];
    const res = await call(`/v1/quizzes/${quiz.id}/accommodations/${user}`, { method: "PUT", body: { extra_attempts: 2 } });
    expect(res.status, res.text).toBe(200);
    for (let i = 1; i <= 3; i++) expect((await createSubmission(quiz.id, user)).attempt).toBe(i);
    expectProblem(await submit(quiz.id, user), 409, "attempt_limit_reached");
    await createSubmission(quiz.id, other);
    expectProblem(await submit(quiz.id, other), 409, "attempt_limit_reached");
  });
});

describe("pools and shuffling", () => {
  async function poolQuiz(settings: Record<string, unknown>) {
    // Two unpooled, six in "a", four in "b", one in "c" (no entry names it: presented like unpooled).
    return createQuiz({
      questions: [...TRUE_FALSE(2), ...TRUE_FALSE(6, "a"), ...TRUE_FALSE(4, "b"), ...TRUE_FALSE(1, "c")],
      settings: {
        pools: [
          { pool: "a", pick: 2 },
          { pool: "b", pick: 1 },
        ],
        ...settings,
      },
    });
  }

  it("draws pick questions per pool plus every other; draws differ; fixed across reads; points_possible counts them", async () => {
    const quiz = await poolQuiz({});
    const [unpooled, a, b, c] = [
      quiz.questionIds.slice(0, 2),
      quiz.questionIds.slice(2, 8),
      quiz.questionIds.slice(8, 12),
      quiz.questionIds.slice(12),
    ];
    const user = await createUser();
    const draws = new Set<string>();
    const subs = [];
    for (let i = 0; i < 12; i++) subs.push(await createSubmission(quiz.id, user));
    for (const sub of subs) {
      const ids: string[] = sub.questions!.map((q: { question_id: string }) => q.question_id);
      expect(sub.questions!.map((q: { position: number }) => q.position)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(ids.filter((id) => a.includes(id))).toHaveLength(2);
      expect(ids.filter((id) => b.includes(id))).toHaveLength(1);
      expect(ids.filter((id) => unpooled.includes(id) || c.includes(id))).toHaveLength(3);
      // Unshuffled: in the quiz's order.
      expect(ids).toEqual([...ids].sort((x, y) => quiz.questionIds.indexOf(x) - quiz.questionIds.indexOf(y)));
      expect(sub.questions!.every((q: object) => !("option_order" in q))).toBe(true);
      draws.add(ids.join());
      expect(withoutQuestionViews((await call(`/v1/submissions/${sub.id}`)).json).questions).toEqual(sub.questions);
    }
    expect(draws.size).toBeGreaterThan(1);
    const graded = await grade(subs[0]!.id);
    expect(graded.points_possible).toBe(6);
    const results = await call(`/v1/submissions/${subs[0]!.id}/results`);
    expect(results.json.answers.map((x: { question_id: string }) => x.question_id)).toEqual(
      subs[0]!.questions!.map((q: { question_id: string }) => q.question_id),
    );
  });

  it("an answer to a question not presented → 400, on create and on replace", async () => {
    const quiz = await poolQuiz({});
    const user = await createUser();
    const sub = await createSubmission(quiz.id, user);
    const shown = new Set(sub.questions!.map((q: { question_id: string }) => q.question_id));
    const hidden = quiz.questionIds.find((id) => !shown.has(id))!;
    expectProblem(await putAnswers(sub.id, [{ question_id: hidden, response: true }]), 400, "validation_failed");
    const presented = sub.questions![0]!.question_id;
    expect((await putAnswers(sub.id, [{ question_id: presented, response: true }])).status).toBe(200);
    // On create the draw is made first; a question no draw can leave out is always accepted.
    const created = await submit(quiz.id, user, [{ question_id: quiz.questionIds[0], response: true }]);
    expect(created.status, created.text).toBe(201);
  });

  it("shuffle_questions orders each submission its own way; shuffle_options gives choice questions an option order", async () => {
    const choice = {
      type: "single_choice",
      prompt: "Pick",
      options: [{ text: "A" }, { text: "B" }, { text: "C" }, { text: "D" }],
      correct_option_id: "a",
    };
    const quiz = await createQuiz({
      questions: [...TRUE_FALSE(5), choice],
      settings: { shuffle_questions: true, shuffle_options: true },
    });
    const user = await createUser();
    const orders = new Set<string>();
    const optionOrders = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const sub = await createSubmission(quiz.id, user);
      const ids: string[] = sub.questions!.map((q: { question_id: string }) => q.question_id);
      expect([...ids].sort()).toEqual([...quiz.questionIds].sort());
      expect(sub.questions!.map((q: { position: number }) => q.position)).toEqual([1, 2, 3, 4, 5, 6]);
      orders.add(ids.join());
      for (const q of sub.questions!) {
        if (q.question_id === quiz.questionIds[5]) {
          expect([...q.option_order!].sort()).toEqual(["a", "b", "c", "d"]);
          optionOrders.add(q.option_order!.join());
        } else expect(q).not.toHaveProperty("option_order");
      }
      expect(withoutQuestionViews((await call(`/v1/submissions/${sub.id}`)).json).questions).toEqual(sub.questions);
    }
    expect(orders.size).toBeGreaterThan(1);
    expect(optionOrders.size).toBeGreaterThan(1);
  });

  it("a pick larger than its pool → 400; removing a question a pool needs → 409 pool_too_small", async () => {
    expectProblem(
      await call("/v1/quizzes", {
        body: { title: "Small", questions: TRUE_FALSE(2, "a"), settings: { pools: [{ pool: "a", pick: 3 }] } },
      }),
      400,
      "validation_failed",
    );
    const quiz = await createQuiz({ questions: TRUE_FALSE(2, "a"), settings: { pools: [{ pool: "a", pick: 2 }] } });
    const [first, second] = quiz.questionIds as [string, string];
    expectProblem(await call(`/v1/quizzes/${quiz.id}/questions/${first}`, { method: "DELETE" }), 409, "pool_too_small");
    expectProblem(
      await call(`/v1/quizzes/${quiz.id}/questions/${second}`, { method: "PATCH", body: { pool: "b" } }),
      409,
      "pool_too_small",
    );
    expectProblem(
      await call(`/v1/quizzes/${quiz.id}`, { method: "PATCH", body: { settings: { pools: [{ pool: "a", pick: 3 }] } } }),
      400,
    );
    // Lowering the pick first frees the question.
    expect(
      (await call(`/v1/quizzes/${quiz.id}`, { method: "PATCH", body: { settings: { pools: [{ pool: "a", pick: 1 }] } } })).status,
    ).toBe(200);
    expect((await call(`/v1/quizzes/${quiz.id}/questions/${first}`, { method: "DELETE" })).status).toBe(204);
  });
});

describe("grading policies", () => {
  /** Four 1-point questions: n right answers score n × 25. */
  const answersScoring = (questionIds: string[], right: number) =>
    questionIds.map((question_id, i) => ({ question_id, response: i < right }));

  it("highest, latest, first and average, by attempt number, at both grade lists; a policy change moves every kept score", async () => {
    const quiz = await createQuiz({ questions: TRUE_FALSE(4), settings: { grading_policy: "highest" } });
    const [user, other] = [await createUser(), await createUser()];
    // Attempts 1..4 score 50, 100, 0, 25; graded out of order (4, 1, 3, 2).
    const subs = [];
    for (const right of [2, 4, 0, 1]) subs.push(await createSubmission(quiz.id, user, answersScoring(quiz.questionIds, right)));
    for (const i of [3, 0, 2, 1]) await grade(subs[i]!.id);
    // The other user: 100, 0, 0 (average 33.33).
    for (const right of [4, 0, 0])
      await grade((await createSubmission(quiz.id, other, answersScoring(quiz.questionIds, right))).id);

    const expected: Record<string, [number, number]> = {
      highest: [100, 100],
      latest: [25, 0],
      first: [50, 100],
      average: [43.75, 33.33],
    };
    for (const [policy, [mine, theirs]] of Object.entries(expected)) {
      const patched = await call(`/v1/quizzes/${quiz.id}`, { method: "PATCH", body: { settings: { grading_policy: policy } } });
      expect(patched.status, patched.text).toBe(200);
      const list = await call(`/v1/quizzes/${quiz.id}/grades`);
      expect(list.status, list.text).toBe(200);
      expect(list.json.grades).toEqual(
        [
          { quiz_id: quiz.id, user_id: user, attempts: 4, kept_score: mine, policy },
          { quiz_id: quiz.id, user_id: other, attempts: 3, kept_score: theirs, policy },
        ].sort((x, y) => x.user_id.localeCompare(y.user_id)),
      );
      const mineList = await call(`/v1/users/${user}/grades`);
      expect(mineList.json.grades).toEqual([{ quiz_id: quiz.id, user_id: user, attempts: 4, kept_score: mine, policy }]);
    }
  });

  it("open submissions are not counted; a user with no graded attempt has no grade", async () => {
    const quiz = await createQuiz({ questions: TRUE_FALSE(1) });
    const user = await createUser();
    await createSubmission(quiz.id, user);
    expect((await call(`/v1/quizzes/${quiz.id}/grades`)).json.grades).toEqual([]);
    expect((await call(`/v1/users/${user}/grades`)).json.grades).toEqual([]);
  });

  it("pages by user id with limit and cursor; unknown quiz or user → 404", async () => {
    const quiz = await createQuiz({ questions: TRUE_FALSE(1) });
    const users = [];
    for (let i = 0; i < 5; i++) {
      const user = await createUser();
      users.push(user);
      await grade((await createSubmission(quiz.id, user)).id);
    }
    const seen: string[] = [];
    let path: `/v1/quizzes/${string}/grades?${string}` | null = `/v1/quizzes/${quiz.id}/grades?limit=2`;
    while (path) {
      const page: AnswerOf<`/v1/quizzes/${string}/grades`> = await call(path);
      expect(page.status, page.text).toBe(200);
      seen.push(...page.json.grades.map((g: { user_id: string }) => g.user_id));
      path = page.json.next_cursor
        ? `/v1/quizzes/${quiz.id}/grades?limit=2&cursor=${encodeURIComponent(page.json.next_cursor)}`
        : null;
    }
    expect(seen).toEqual([...users].sort());
    expectProblem(await call("/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4r/grades"), 404, "not_found");
    expectProblem(await call("/v1/users/user_01kamz3f7c9n0p8s6e5vwx2y4r/grades"), 404, "not_found");
  });
});

describe("reveal policies, per scope", () => {
  let reader: string;
  let writer: string;
  beforeAll(async () => {
    reader = (await seedApiKey(["submissions:read"], { name: "results reader" })).key;
    writer = (await seedApiKey(["submissions:read", "quizzes:write"], { name: "quiz writer" })).key;
  });

  /** Whether each credential's results for the submission carry correct_answer. */
  async function revealed(submissionId: string) {
    const seen = async (auth: string) => {
      const res = await call(`/v1/submissions/${submissionId}/results`, { auth });
      expect(res.status, res.text).toBe(200);
      return res.json.answers.every((a: object) => "correct_answer" in a);
    };
    return { reader: await seen(reader), writer: await seen(writer) };
  }

  it("always and never (and the booleans they replace)", async () => {
    for (const [show, reveals] of [
      ["always", true],
      [true, true],
      ["never", false],
      [false, false],
    ] as const) {
      const quiz = await createQuiz({ questions: TRUE_FALSE(1), settings: { show_correct_answers: show } });
      expect(quiz.settings.show_correct_answers).toBe(reveals ? "always" : "never");
      const sub = await createSubmission(quiz.id, await createUser());
      await grade(sub.id);
      expect(await revealed(sub.id)).toEqual({ reader: reveals, writer: true });
    }
  });

  it("after_last_attempt: once graded attempts reach max_attempts + extra_attempts, in all of the user's results", async () => {
    const quiz = await createQuiz({
      questions: TRUE_FALSE(1),
      settings: { show_correct_answers: "after_last_attempt", max_attempts: 2 },
    });
    const [user, extra] = [await createUser(), await createUser()];
    const first = await createSubmission(quiz.id, user);
    await grade(first.id);
    expect(await revealed(first.id)).toEqual({ reader: false, writer: true });
    const second = await createSubmission(quiz.id, user);
    // An open last attempt does not reveal; its grading does.
    expect(await revealed(first.id)).toEqual({ reader: false, writer: true });
    await grade(second.id);
    expect(await revealed(first.id)).toEqual({ reader: true, writer: true });
    expect(await revealed(second.id)).toEqual({ reader: true, writer: true });

    await call(`/v1/quizzes/${quiz.id}/accommodations/${extra}`, { method: "PUT", body: { extra_attempts: 1 } });
    const subs = [];
    for (let i = 0; i < 3; i++) {
      subs.push(await createSubmission(quiz.id, extra));
      await grade(subs[i]!.id);
      expect((await revealed(subs[0]!.id)).reader).toBe(i === 2);
    }

    const unlimited = await createQuiz({ questions: TRUE_FALSE(1), settings: { show_correct_answers: "after_last_attempt" } });
    const many = await createUser();
    for (let i = 0; i < 3; i++) {
      const sub = await createSubmission(unlimited.id, many);
      await grade(sub.id);
      expect(await revealed(sub.id)).toEqual({ reader: false, writer: true });
    }
  });

  it("after_due: after available_until, else after the deadline, else once graded, once the user can answer no more", async () => {
    const windowed = await createQuiz({
      questions: TRUE_FALSE(1),
      settings: { show_correct_answers: "after_due", available_until: iso(T0 + 3_600_000), time_limit_seconds: 60 },
    });
    const timed = await createQuiz({
      questions: TRUE_FALSE(1),
      settings: { show_correct_answers: "after_due", time_limit_seconds: 60, max_attempts: 1 },
    });
    const untimed = await createQuiz({
      questions: TRUE_FALSE(1),
      settings: { show_correct_answers: "after_due", max_attempts: 1 },
    });
    at(T0);
    const [w, t, u] = [
      await createSubmission(windowed.id, await createUser()),
      await createSubmission(timed.id, await createUser()),
      await createSubmission(untimed.id, await createUser()),
    ];
    for (const sub of [w, t, u]) await grade(sub.id);
    expect(await revealed(w.id)).toEqual({ reader: false, writer: true });
    expect(await revealed(t.id)).toEqual({ reader: false, writer: true });
    expect(await revealed(u.id)).toEqual({ reader: true, writer: true });
    at(T0 + 60_000);
    // Past the submission's deadline but not the window's end: the window decides.
    expect(await revealed(w.id)).toEqual({ reader: false, writer: true });
    expect(await revealed(t.id)).toEqual({ reader: true, writer: true });
    at(T0 + 3_600_000);
    expect(await revealed(w.id)).toEqual({ reader: true, writer: true });
  });

  it("after_due hides the key while the user has attempts left, counting extra_attempts, and while a submission is open", async () => {
    const quiz = await createQuiz({
      questions: TRUE_FALSE(1),
      settings: { show_correct_answers: "after_due", time_limit_seconds: 60, max_attempts: 2 },
    });
    const [user, extra] = [await createUser(), await createUser()];
    await call(`/v1/quizzes/${quiz.id}/accommodations/${extra}`, { method: "PUT", body: { extra_attempts: 1 } });
    at(T0);
    const first = await createSubmission(quiz.id, user);
    await grade(first.id);
    at(T0 + 61_000);
    // Past attempt 1's deadline, but attempt 2 may still be made: the key would answer it.
    expect(await revealed(first.id)).toEqual({ reader: false, writer: true });
    const second = await createSubmission(quiz.id, user);
    expect(await revealed(first.id)).toEqual({ reader: false, writer: true });
    await grade(second.id);
    // Attempts used; the second's own deadline (T0 + 121 s) has not passed.
    expect(await revealed(first.id)).toEqual({ reader: true, writer: true });
    expect(await revealed(second.id)).toEqual({ reader: false, writer: true });
    at(T0 + 121_000);
    expect(await revealed(second.id)).toEqual({ reader: true, writer: true });

    // max_attempts 2 + 1 extra: two graded attempts past their deadlines still leave one.
    const extras = [];
    for (let i = 0; i < 3; i++) {
      at(T0 + 200_000 + i * 100_000);
      extras.push(await createSubmission(quiz.id, extra));
      await grade(extras[i]!.id);
      at(T0 + 261_000 + i * 100_000);
      expect((await revealed(extras[0]!.id)).reader).toBe(i === 2);
    }

    // A window that has ended, with a submission still open (the cron has not graded it yet).
    const windowed = await createQuiz({
      questions: TRUE_FALSE(1),
      settings: { show_correct_answers: "after_due", available_until: iso(T0 + 3_600_000) },
    });
    const late = await createUser();
    at(T0);
    const graded = await createSubmission(windowed.id, late);
    await grade(graded.id);
    const open = await createSubmission(windowed.id, late);
    at(T0 + 3_600_000);
    expect(await revealed(graded.id)).toEqual({ reader: false, writer: true });
    await grade(open.id);
    expect(await revealed(graded.id)).toEqual({ reader: true, writer: true });

    // Unlimited attempts and no end: the user can always answer again, so the key stays hidden.
    const endless = await createQuiz({ questions: TRUE_FALSE(1), settings: { show_correct_answers: "after_due" } });
    at(T0);
    const sub = await createSubmission(endless.id, await createUser());
    await grade(sub.id);
    at(T0 + 365 * 86_400_000);
    expect(await revealed(sub.id)).toEqual({ reader: false, writer: true });
  });

  it("after_last_attempt hides the key again when an accommodation gives back an attempt", async () => {
    const quiz = await createQuiz({
      questions: TRUE_FALSE(1),
      settings: { show_correct_answers: "after_last_attempt", max_attempts: 1 },
    });
    const user = await createUser();
    const sub = await createSubmission(quiz.id, user);
    await grade(sub.id);
    expect(await revealed(sub.id)).toEqual({ reader: true, writer: true });
    await call(`/v1/quizzes/${quiz.id}/accommodations/${user}`, { method: "PUT", body: { extra_attempts: 1 } });
    expect(await revealed(sub.id)).toEqual({ reader: false, writer: true });
    const again = await createSubmission(quiz.id, user);
    expect(await revealed(sub.id)).toEqual({ reader: false, writer: true });
    await grade(again.id);
    expect(await revealed(sub.id)).toEqual({ reader: true, writer: true });
  });

  it("GET /v1/submissions/{id} shows the presented questions, never their keys", async () => {
    const quiz = await createQuiz({ questions: TRUE_FALSE(2) });
    const sub = await createSubmission(quiz.id, await createUser());
    for (const auth of [reader, writer]) {
      const res = await call(`/v1/submissions/${sub.id}`, { auth });
      expect(res.status, res.text).toBe(200);
      expect(withoutQuestionViews(res.json).questions).toEqual(
        quiz.questionIds.map((question_id, i) => ({ question_id, position: i + 1 })),
      );
      // Each carries its question as this credential sees it: never a key to a reader.
      for (const entry of res.json.questions ?? []) expect(entry.question).toHaveProperty("type", "true_false");
      if (auth === reader) expect(JSON.stringify(res.json)).not.toContain('"correct"');
    }
  });
});
