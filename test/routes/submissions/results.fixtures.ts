import { expect } from "vitest";
import { call, defaultKey, seedApiKey } from "../../support/call";

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const MISSING_SUB = "sub_01kamz3f7c9n0p8s6e5vwx2y4r";

export const tf = (correct: boolean, extra: Record<string, unknown> = {}) => ({
  type: "true_false",
  prompt: "True?",
  correct,
  ...extra,
});

export async function createQuiz(questions: unknown[], settings: Record<string, unknown> = {}) {
  const res = await call("/v1/quizzes", {
    body: { title: `Results ${crypto.randomUUID()}`, settings: { show_correct_answers: true, ...settings }, questions },
  });
  expect(res.status, res.text).toBe(201);
  const list = await call(`/v1/quizzes/${res.json.id}/questions?limit=100`);
  expect(list.status, list.text).toBe(200);
  return { id: res.json.id as string, ids: (list.json.questions as { id: string }[]).map((q) => q.id) };
}

export async function createUser() {
  const res = await call("/v1/users", { body: { name: "Student", email: `r-${crypto.randomUUID()}@example.com` } });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

export async function submit(quizId: string, answers: [string, unknown][], userId?: string) {
  const body = {
    user_id: userId ?? (await createUser()),
    answers: answers.map(([question_id, response]) => ({ question_id, response })),
  };
  const res = await call(`/v1/quizzes/${quizId}/submissions`, { body });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

export async function grade(id: string) {
  const res = await call(`/v1/submissions/${id}/grade`, { method: "POST" });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/**
 * Results as a reader sees them (submissions:read only): the quiz's reveal policy applies. The
 * reader's key lives as long as the file's admin key: the files of a runtime share this module, and
 * test/support/fresh-storage.ts empties D1 (and forgets the admin key) between them.
 */
let reader: { admin: Promise<string>; key: Promise<string> } | undefined;
export async function results(id: string, auth?: string) {
  const admin = defaultKey();
  if (reader?.admin !== admin)
    reader = { admin, key: seedApiKey(["submissions:read"], { name: "results reader" }).then((k) => k.key) };
  const res = await call(`/v1/submissions/${id}/results`, { auth: auth ?? (await reader.key) });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

export async function quizAnalytics(quizId: string) {
  const res = await call(`/v1/analytics/quiz/${quizId}`);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** Grades a fresh submission of `answers` and returns the grade. */
export const gradeAnswers = async (quizId: string, answers: [string, unknown][]) => grade(await submit(quizId, answers));
