import { expect } from "vitest";
import { type AnswerOf, call } from "../../support/call";

export const MISSING_QUIZ = "quiz_01kamz3f7c9n0p8s6e5vwx2y4r";
export const MISSING_USER = "user_01kamz3f7c9n0p8s6e5vwx2y4r";
export const ZERO_BUCKETS = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i * 10 + 10, count: 0 }));

export const tf = (points = 1) => ({ type: "true_false", prompt: "True?", correct: true, points });

export async function createQuiz(questions: unknown[], auth?: string) {
  const res = await call("/v1/quizzes", { body: { title: `Analytics ${crypto.randomUUID()}`, questions }, auth });
  expect(res.status, res.text).toBe(201);
  const list = await call(`/v1/quizzes/${res.json.id}/questions?limit=100`, { auth });
  return { id: res.json.id as string, ids: (list.json.questions as { id: string }[]).map((q) => q.id) };
}

export async function createUser(auth?: string) {
  const res = await call("/v1/users", { body: { name: "Student", email: `a-${crypto.randomUUID()}@example.com` }, auth });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

/** A submission answering `answers`; graded unless `open`. */
export async function take(
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
export const scoreRight = (quiz: { id: string; ids: string[] }, userId: string, right: number, open = false) =>
  take(
    quiz.id,
    userId,
    quiz.ids.slice(0, right).map((id): [string, unknown] => [id, true]),
    { open },
  );

export async function analytics<K extends "quiz" | "user">(
  kind: K,
  id: string,
  auth?: string,
): Promise<AnswerOf<`/v1/analytics/${K}/${string}`>["json"]> {
  const res = await call(`/v1/analytics/${kind}/${id}` as `/v1/analytics/${K}/${string}`, { auth });
  expect(res.status, res.text).toBe(200);
  return res.json;
}
