import { expect } from "vitest";
import { type AnswerOf, call, type Schema } from "../../support/call";

export const QST_ID = /^qst_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const MISSING_QUIZ_ID = "quiz_01kamz3f7c9n0p8s6e5vwx2y4r";
export const MISSING_QUESTION_ID = "qst_01kamz3f7c9n0p8s6e5vwx2y4r";
export const TYPES = ["single_choice", "multiple_choice", "true_false", "short_text", "numeric"] as const;

export const tf = (prompt: string) => ({ type: "true_false", prompt, correct: true });
export const single = (extra: Record<string, unknown> = {}) => ({
  type: "single_choice",
  prompt: "Capital of France?",
  options: [{ text: "Paris" }, { text: "Lyon" }, { text: "Nice" }],
  correct_option_id: "a",
  ...extra,
});

export async function createQuiz(questions: unknown[] = []) {
  const res = await call("/v1/quizzes", { body: { title: `Questions ${crypto.randomUUID()}`, questions } });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

export async function addQuestion(quizId: string, body: unknown) {
  const res = await call(`/v1/quizzes/${quizId}/questions`, { body });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

export async function listAll(quizId: string): Promise<Schema<"Question">[]> {
  const out: Schema<"Question">[] = [];
  let cursor: string | null = null;
  do {
    const res: AnswerOf<"/v1/quizzes/{id}/questions"> = await call(
      `/v1/quizzes/${quizId}/questions?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
    );
    expect(res.status, res.text).toBe(200);
    out.push(...res.json.questions);
    cursor = res.json.next_cursor;
  } while (cursor);
  return out;
}

/** The prompts in order, after checking positions run 1..n without gaps. */
export async function promptsInOrder(quizId: string): Promise<string[]> {
  const all = await listAll(quizId);
  expect(all.map((q) => q.position)).toEqual(all.map((_, i) => i + 1));
  return all.map((q) => q.prompt);
}
