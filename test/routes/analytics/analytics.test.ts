import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SCOPES } from "../../../src/lib/scopes";
import { call, expectProblem, seedApiKey } from "../../helpers";
import {
  expectQuizAnalyticsMatch,
  expectUserAnalyticsMatch,
  recomputeQuizAnalytics,
  recomputeUserAnalytics,
} from "../../support/recompute";

const MISSING_QUIZ = "quiz_01kamz3f7c9n0p8s6e5vwx2y4r";
const MISSING_USER = "user_01kamz3f7c9n0p8s6e5vwx2y4r";
const ZERO_BUCKETS = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i * 10 + 10, count: 0 }));

const tf = (points = 1) => ({ type: "true_false", prompt: "True?", correct: true, points });

async function createQuiz(questions: unknown[], auth?: string) {
  const res = await call("/v1/quizzes", { body: { title: `Analytics ${crypto.randomUUID()}`, questions }, auth });
  expect(res.status, res.text).toBe(201);
  const list = await call(`/v1/quizzes/${res.json.id}/questions?limit=100`, { auth });
  return { id: res.json.id as string, ids: (list.json.questions as { id: string }[]).map((q) => q.id) };
}

async function createUser(auth?: string) {
  const res = await call("/v1/users", { body: { name: "Student", email: `a-${crypto.randomUUID()}@example.com` }, auth });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

/** A submission answering `answers`; graded unless `open`. */
async function take(
  quizId: string,
  userId: string,
  answers: [string, unknown][],
  options: { open?: boolean; auth?: string } = {},
) {
  const body = { user_id: userId, answers: answers.map(([question_id, response]) => ({ question_id, response })) };
  const created = await call(`/v1/quizzes/${quizId}/submissions`, { body, auth: options.auth });
  expect(created.status, created.text).toBe(201);
  if (options.open) return created.json;
  const graded = await call(`/v1/submissions/${created.json.id}/grade`, { method: "POST", auth: options.auth });
  expect(graded.status, graded.text).toBe(200);
  return graded.json;
}

/** A graded submission to a quiz of true/false questions with the first `right` answered correctly. */
const scoreRight = (quiz: { id: string; ids: string[] }, userId: string, right: number, open = false) =>
  take(
    quiz.id,
    userId,
    quiz.ids.slice(0, right).map((id): [string, unknown] => [id, true]),
    { open },
  );

async function analytics(kind: "quiz" | "user", id: string, auth?: string) {
  const res = await call(`/v1/analytics/${kind}/${id}`, { auth });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

describe("GET /v1/analytics/quiz/{id}", () => {
  it("a quiz without graded submissions → zeros, nulls and ten empty buckets", async () => {
    const quiz = await createQuiz([tf(), tf(2)]);
    const empty = {
      quiz_id: quiz.id,
      total_attempts: 0,
      unique_users: 0,
      avg_score: 0,
      min_score: null,
      max_score: null,
      stddev_score: null,
      score_distribution: ZERO_BUCKETS,
      questions: quiz.ids.map((question_id) => ({ question_id, attempts: 0, correct_count: 0, correct_rate: 0, avg_points: 0 })),
    };
    expect(await analytics("quiz", quiz.id)).toEqual(empty);
    // Open submissions do not count.
    await scoreRight(quiz, await createUser(), 2, true);
    expect(await analytics("quiz", quiz.id)).toEqual(empty);
    expectQuizAnalyticsMatch(empty, await recomputeQuizAnalytics(quiz.id));

    // Questions are listed in their quiz order, which a move changes.
    const moved = await call(`/v1/quizzes/${quiz.id}/questions/${quiz.ids[1]}`, { method: "PATCH", body: { position: 1 } });
    expect(moved.status, moved.text).toBe(200);
    expect((await analytics("quiz", quiz.id)).questions.map((q: any) => q.question_id)).toEqual([quiz.ids[1], quiz.ids[0]]);

    const noQuestions = await createQuiz([]);
    expect((await analytics("quiz", noQuestions.id)).questions).toEqual([]);
  });

  it("after graded submissions: the statistics, bucket edges included, equal a recomputation", async () => {
    const quiz = await createQuiz(Array.from({ length: 10 }, () => tf()));
    const [u1, u2, u3] = [await createUser(), await createUser(), await createUser()];
    const taken: [string, number][] = [
      [u1, 10],
      [u1, 9],
      [u2, 8],
      [u2, 1],
      [u3, 0],
      [u3, 10],
    ];
    for (const [user, right] of taken) await scoreRight(quiz, user, right);
    await scoreRight(quiz, u1, 5, true); // open: not counted
    const scores = taken.map(([, right]) => right * 10);
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    const stddev = Math.sqrt(scores.reduce((a, s) => a + (s - mean) ** 2, 0) / scores.length);

    const api = await analytics("quiz", quiz.id);
    expect(api).toMatchObject({ total_attempts: 6, unique_users: 3, avg_score: 63.33, min_score: 0, max_score: 100 });
    expect(api.stddev_score).toBe(Math.round(stddev * 100) / 100);
    // 10 starts [10,20); 100 is in the last bucket, [90,100].
    expect(api.score_distribution.map((b: any) => b.count)).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 1, 3]);
    expect(api.questions[0]).toEqual({
      question_id: quiz.ids[0],
      attempts: 6,
      correct_count: 5,
      correct_rate: 0.8333,
      avg_points: 0.833333,
    });
    expect(api.questions[9]).toMatchObject({ attempts: 6, correct_count: 2, correct_rate: 0.3333 });
    expectQuizAnalyticsMatch(api, await recomputeQuizAnalytics(quiz.id));
  });

  it("partial credit and fractional points agree with the recomputation", async () => {
    const quiz = await createQuiz([
      tf(0.3),
      {
        type: "multiple_choice",
        prompt: "Which?",
        points: 0.7,
        options: [{ text: "A" }, { text: "B" }, { text: "C" }, { text: "D" }],
        correct_option_ids: ["a", "b", "c"],
        scoring: "partial",
      },
      { type: "numeric", prompt: "n?", points: 2.25, correct_value: 1, tolerance: 0.5 },
    ]);
    const user = await createUser();
    const picks: unknown[][] = [
      [true, ["a"], 1],
      [false, ["a", "b"], 0],
      [true, ["a", "d"], 1.5],
      [true, ["a", "b", "c"], 7],
      [false, ["d"], 0.5],
    ];
    for (const pick of picks)
      await take(
        quiz.id,
        user,
        quiz.ids.map((id, i): [string, unknown] => [id, pick[i]]),
      );
    expectQuizAnalyticsMatch(await analytics("quiz", quiz.id), await recomputeQuizAnalytics(quiz.id));
    expectUserAnalyticsMatch(await analytics("user", user), await recomputeUserAnalytics(user));
  });

  it("unknown or malformed quiz → 404", async () => {
    expectProblem(await call(`/v1/analytics/quiz/${MISSING_QUIZ}`), 404, "not_found");
    expectProblem(await call("/v1/analytics/quiz/nope"), 404, "not_found");
    expectProblem(await call(`/v1/analytics/quiz/${MISSING_USER}`), 404, "not_found");
  });
});

describe("GET /v1/analytics/user/{id}", () => {
  it("a user without graded submissions → zeros and nulls", async () => {
    const user = await createUser();
    const empty = {
      user_id: user,
      quizzes_taken: 0,
      avg_score: 0,
      total_attempts: 0,
      min_score: null,
      max_score: null,
      last_graded_at: null,
    };
    expect(await analytics("user", user)).toEqual(empty);
    await scoreRight(await createQuiz([tf()]), user, 1, true);
    expect(await analytics("user", user)).toEqual(empty);
    expectUserAnalyticsMatch(empty, await recomputeUserAnalytics(user));
  });

  it("after graded submissions to several quizzes: equal to a recomputation", async () => {
    const [q1, q2] = [await createQuiz([tf(), tf(), tf()]), await createQuiz([tf(), tf()])];
    const user = await createUser();
    await scoreRight(q1, user, 1);
    await scoreRight(q1, user, 3);
    const last = await scoreRight(q2, user, 1);
    await scoreRight(q2, user, 0, true); // open: not counted
    await scoreRight(q1, await createUser(), 0); // someone else's
    const api = await analytics("user", user);
    expect(api).toEqual({
      user_id: user,
      quizzes_taken: 2,
      avg_score: 61.11, // (33.33 + 100 + 50) / 3
      total_attempts: 3,
      min_score: 33.33,
      max_score: 100,
      last_graded_at: last.graded_at,
    });
    expectUserAnalyticsMatch(api, await recomputeUserAnalytics(user));
  });

  it("unknown, malformed or deleted user → 404", async () => {
    expectProblem(await call(`/v1/analytics/user/${MISSING_USER}`), 404, "not_found");
    expectProblem(await call("/v1/analytics/user/nope"), 404, "not_found");
    const user = await createUser();
    expect((await call(`/v1/users/${user}`, { method: "DELETE" })).status).toBe(204);
    expectProblem(await call(`/v1/analytics/user/${user}`), 404, "not_found");
  });
});

describe("analytics scope", () => {
  it("needs analytics:read → 403 insufficient_scope without it", async () => {
    const quiz = await createQuiz([tf()]);
    const user = await createUser();
    const { key: without } = await seedApiKey(SCOPES.filter((s) => s !== "analytics:read" && s !== "admin"));
    for (const path of [`/v1/analytics/quiz/${quiz.id}`, `/v1/analytics/user/${user}`]) {
      const res = await call(path, { auth: without });
      expectProblem(res, 403, "insufficient_scope");
      expect(res.headers.get("www-authenticate")).toContain('scope="analytics:read"');
    }
    const { key: reader } = await seedApiKey(["analytics:read"]);
    expect((await analytics("quiz", quiz.id, reader)).quiz_id).toBe(quiz.id);
    expect((await analytics("user", user, reader)).user_id).toBe(user);
    expectProblem(await call(`/v1/analytics/quiz/${quiz.id}`, { auth: false }), 401, "unauthorized");
  });
});

describe("analytics property", () => {
  // Four questions worth 1, 2, 3 and 0.7 points (the last with partial credit), so scores take
  // many uneven values; users answer any mix, some submissions stay open.
  const QUESTIONS = [
    tf(1),
    tf(2),
    {
      type: "single_choice",
      prompt: "Which?",
      points: 3,
      options: [{ text: "A" }, { text: "B" }, { text: "C" }],
      correct_option_id: "c",
    },
    {
      type: "multiple_choice",
      prompt: "Which ones?",
      points: 0.7,
      options: [{ text: "A" }, { text: "B" }, { text: "C" }, { text: "D" }],
      correct_option_ids: ["a", "b", "c"],
      scoring: "partial",
    },
  ];
  const responseArbs: fc.Arbitrary<unknown>[] = [
    fc.boolean(),
    fc.boolean(),
    fc.constantFrom("a", "b", "c"),
    fc.subarray(["a", "b", "c", "d"]),
  ];
  const submissionArb = fc.record({
    user: fc.nat({ max: 3 }),
    // undefined: the question is left unanswered.
    responses: fc.tuple(...responseArbs.map((arb) => fc.option(arb, { nil: undefined, freq: 4 }))),
    // About one in four stays open.
    open: fc.nat({ max: 3 }).map((n) => n === 0),
  });

  it("for random score patterns the API's analytics equal a recomputation", async () => {
    const { key: setupKey } = await seedApiKey(["admin"]);
    // Two users shared by every run, so their analytics span many quizzes; two fresh per run.
    const shared = [await createUser(setupKey), await createUser(setupKey)];
    await fc.assert(
      fc.asyncProperty(fc.array(submissionArb, { minLength: 0, maxLength: 6 }), async (submissions) => {
        // A key per run: every request of the run on one credential stays far below the rate limit.
        const { key } = await seedApiKey(["admin"]);
        const [quiz, ...fresh] = await Promise.all([createQuiz(QUESTIONS, key), createUser(key), createUser(key)] as const);
        const users = [...shared, ...fresh];
        // Taken and graded concurrently: the aggregates must not depend on the order of grading.
        await Promise.all(
          submissions.map((s) => {
            const answers = quiz.ids.flatMap((id, i): [string, unknown][] =>
              s.responses[i] === undefined ? [] : [[id, s.responses[i]]],
            );
            return take(quiz.id, users[s.user]!, answers, { open: s.open, auth: key });
          }),
        );
        expectQuizAnalyticsMatch(await analytics("quiz", quiz.id, key), await recomputeQuizAnalytics(quiz.id));
        await Promise.all(
          users.map(async (user) =>
            expectUserAnalyticsMatch(await analytics("user", user, key), await recomputeUserAnalytics(user)),
          ),
        );
      }),
      { seed: 20261122, numRuns: 25 },
    );
  }, 60_000);
});
