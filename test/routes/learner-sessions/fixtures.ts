import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { call, callRaw } from "../../support/call";
import { createQuiz, createUser } from "../submissions/fixtures";

export { createQuiz, createUser };

export const SESSION_ID = /^lse_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
export const LEARNER_TOKEN = /^qz_lt_[0-9A-Za-z]{43}$/;
export const ORIGIN = "https://school.example.org";

/** A learner session minted by the file's admin key; `body` overrides the defaults. */
export async function mint(userId: string, quizId: string, body: Record<string, unknown> = {}) {
  const res = await call("/v1/learner-sessions", { body: { user_id: userId, quiz_id: quizId, origins: [ORIGIN], ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** A quiz, a user and a learner session for them. */
export async function learnerSetup(settings: Record<string, unknown> = {}, questions?: unknown[]) {
  const quiz = await createQuiz(settings, questions);
  const user = await createUser();
  const session = await mint(user, quiz.id);
  return { quiz, user, session, token: session.token };
}

/** A call with a learner (or any) token as Bearer, from the session's origin unless told. */
export const asLearner = (token: string, path: string, options: { method?: string; body?: unknown; origin?: string } = {}) =>
  callRaw(path, { ...options, auth: token, headers: options.origin ? { origin: options.origin } : {} });

/** The events of one type whose object is the session, straight from D1. */
export async function sessionEvents(type: string, sessionId: string) {
  const rows = await env.DB.prepare("SELECT data FROM events WHERE type = ? AND json_extract(data, '$.object.id') = ?")
    .bind(type, sessionId)
    .all<{ data: string }>();
  return rows.results.map((r) => JSON.parse(r.data) as { object: Record<string, unknown> });
}
