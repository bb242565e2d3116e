import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { call } from "../../support/call";

export const QUIZ_ID = /^quiz_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const MISSING_QUIZ = "/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4r";
export const DEFAULT_SETTINGS = {
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

export const tf = (prompt = "Is the sky blue?") => ({ type: "true_false", prompt, correct: true });
export const unique = (label: string) => `${label} ${crypto.randomUUID()}`;

export async function createQuiz(body: Record<string, unknown> = {}) {
  const res = await call("/v1/quizzes", { body: { title: unique("Quiz"), ...body } });
  expect(res.status, res.text).toBe(201);
  // The quiz as the API shows it everywhere; only the create answer adds question_ids.
  const { question_ids: _, ...quiz } = res.json;
  return quiz;
}

export async function countRows(sql: string, ...params: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
