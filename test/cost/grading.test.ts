import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { type BindingCounts, countingEnv } from "../support/binding-counter";
import { BASE, call, seedApiKey } from "../support/call";

/**
 * What grading and analytics cost in D1 round trips (§2: "reads cost the same at 10 and at
 * 100 000 submissions"). Only the D1 calls a request makes before its response count; the
 * credential is warmed first, so authentication costs KV reads only (test/auth-cost.test.ts).
 */

const QUESTIONS = [
  { type: "true_false", prompt: "True?", correct: true },
  { type: "single_choice", prompt: "Which?", points: 2, options: [{ text: "A" }, { text: "B" }], correct_option_id: "a" },
  { type: "numeric", prompt: "n?", correct_value: 3 },
];

interface Measured {
  status: number;
  body: any;
  beforeResponse: BindingCounts;
}

/** One request through the app with counted bindings; a fresh counter each time. */
async function measure(key: string, path: string, method = "GET"): Promise<Measured> {
  const counted = countingEnv(env);
  const res = await app.fetch(
    new Request(`${BASE}${path}`, { method, headers: { authorization: `Bearer ${key}` } }),
    counted.env,
    createExecutionContext(),
  );
  const beforeResponse = { ...counted.counts };
  return { status: res.status, body: await res.json(), beforeResponse };
}

/** A key whose KV cache entry is filled, so that authenticating it reaches no D1. */
async function warmKey() {
  const { key } = await seedApiKey(["submissions:write", "submissions:read", "analytics:read"]);
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`${BASE}/v1/auth/verify`, { headers: { authorization: `Bearer ${key}` } }), env, ctx);
  expect(res.status).toBe(200);
  await waitOnExecutionContext(ctx);
  const warm = await measure(key, "/v1/auth/verify");
  expect(warm.beforeResponse.d1).toBe(0);
  return key;
}

/** Everything grading may write, to show that a repeated grade changes nothing. */
async function gradingState(quizId: string, userId: string, submissionId: string) {
  const rows = await env.DB.batch([
    env.DB.prepare("SELECT * FROM submissions WHERE id = ?").bind(submissionId),
    env.DB.prepare("SELECT * FROM quiz_stats WHERE quiz_id = ?").bind(quizId),
    env.DB.prepare("SELECT * FROM grades WHERE quiz_id = ? ORDER BY user_id").bind(quizId),
    env.DB.prepare("SELECT * FROM item_sums WHERE quiz_id = ? ORDER BY attempts").bind(quizId),
    env.DB.prepare("SELECT * FROM user_stats WHERE user_id = ?").bind(userId),
  ]);
  return rows.map((r) => r.results);
}

/** A quiz with `graded` graded submissions by three users, and one more submission left open. */
async function quizWithGraded(graded: number) {
  const quiz = await call("/v1/quizzes", { body: { title: `Cost ${graded}`, questions: QUESTIONS } });
  expect(quiz.status, quiz.text).toBe(201);
  const quizId = quiz.json.id as string;
  const questionIds = ((await call(`/v1/quizzes/${quizId}/questions`)).json.questions as { id: string }[]).map((q) => q.id);
  const users = await Promise.all(
    [0, 1, 2].map(async (i) => {
      const res = await call("/v1/users", { body: { name: `Cost ${i}`, email: `cost-${crypto.randomUUID()}@example.com` } });
      return res.json.id as string;
    }),
  );
  const take = async (i: number) => {
    const answers = [
      { question_id: questionIds[0], response: i % 2 === 0 },
      { question_id: questionIds[1], response: i % 3 === 0 ? "a" : "b" },
      { question_id: questionIds[2], response: i % 5 },
    ];
    const res = await call(`/v1/quizzes/${quizId}/submissions`, { body: { user_id: users[i % 3], answers } });
    expect(res.status, res.text).toBe(201);
    return res.json.id as string;
  };
  const ids = await Promise.all(Array.from({ length: graded }, (_, i) => take(i)));
  const grades = await Promise.all(ids.map((id) => call(`/v1/submissions/${id}/grade`, { method: "POST" })));
  expect(grades.every((g) => g.status === 200)).toBe(true);
  const open = await take(graded);
  return { quizId, userId: users[graded % 3]!, open };
}

/** The D1 round trips of: grading an open submission, grading it again, reading each analytics. */
async function costs(graded: number) {
  const { quizId, userId, open } = await quizWithGraded(graded);
  const key = await warmKey();

  const first = await measure(key, `/v1/submissions/${open}/grade`, "POST");
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  expect(first.body.status).toBe("graded");

  const before = await gradingState(quizId, userId, open);
  const again = await measure(key, `/v1/submissions/${open}/grade`, "POST");
  expect(again.status).toBe(200);
  expect(again.body).toEqual(first.body);
  expect(await gradingState(quizId, userId, open)).toEqual(before);

  const quiz = await measure(key, `/v1/analytics/quiz/${quizId}`);
  expect(quiz.status).toBe(200);
  expect(quiz.body.total_attempts).toBe(graded + 1);
  const user = await measure(key, `/v1/analytics/user/${userId}`);
  expect(user.status).toBe(200);
  expect(user.body.total_attempts).toBeGreaterThan(0);

  return {
    grade: first.beforeResponse.d1,
    regrade: again.beforeResponse.d1,
    quizAnalytics: quiz.beforeResponse.d1,
    userAnalytics: user.beforeResponse.d1,
  };
}

describe("grading and analytics cost in D1 round trips", () => {
  type Costs = Awaited<ReturnType<typeof costs>>;
  let small: Costs;
  let large: Costs;
  beforeAll(async () => {
    small = await costs(5);
    large = await costs(60);
  }, 30_000);

  it("grading an open submission: at most one read and one atomic batch", () => {
    expect(small.grade).toBeLessThanOrEqual(2);
  });

  it("grading again: one read, and nothing written", () => {
    expect(small.regrade).toBe(1);
  });

  it("each analytics read: exactly one query", () => {
    expect(small.quizAnalytics).toBe(1);
    expect(small.userAnalytics).toBe(1);
  });

  it("the same at 5 and at 60 graded submissions", () => {
    expect(large).toEqual(small);
  });
});
