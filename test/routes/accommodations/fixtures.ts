import { beforeAll, expect } from "vitest";
import { call, seedApiKey } from "../../support/call";

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const MISSING_QUIZ = "quiz_01kamz3f7c9n0p8s6e5vwx2y4r";
export const MISSING_USER = "user_01kamz3f7c9n0p8s6e5vwx2y4r";

async function created(path: "/v1/quizzes" | "/v1/users", body: unknown) {
  const res = await call(path, { body });
  expect(res.status, `${path}: ${res.text}`).toBe(201);
  return res.json.id;
}

export const newQuiz = () => created("/v1/quizzes", { title: `Quiz ${crypto.randomUUID()}` });
export const newUser = () => created("/v1/users", { name: "Ada", email: `${crypto.randomUUID()}@example.com` });
export const path = (quizId: string, userId?: string) =>
  `/v1/quizzes/${quizId}/accommodations${userId ? `/${userId}` : ""}` as `/v1/quizzes/${string}/accommodations`;
export const put = (quizId: string, userId: string, body: unknown, auth?: string) =>
  call(`/v1/quizzes/${quizId}/accommodations/${userId}`, { method: "PUT", body, auth });

/** A key that may read quizzes but not write them. */
export let readOnlyKey: string;
/** Before the file's tests: readOnlyKey. */
export function useReadOnlyKey(): void {
  beforeAll(async () => {
    readOnlyKey = (await seedApiKey(["quizzes:read"], { name: "read only" })).key;
  });
}
