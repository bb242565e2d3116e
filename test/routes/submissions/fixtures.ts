import { expect } from "vitest";
import { type AnswerOf, call, expectProblem, type Schema } from "../../support/call";

export const SUB_ID = /^sub_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const MISSING_QUIZ = "quiz_01kamz3f7c9n0p8s6e5vwx2y4r";
export const MISSING_USER = "user_01kamz3f7c9n0p8s6e5vwx2y4r";
export const MISSING_QUESTION = "qst_01kamz3f7c9n0p8s6e5vwx2y4r";
export const MISSING_SUB = "sub_01kamz3f7c9n0p8s6e5vwx2y4r";

/** One question of each type, in this order: single, multiple, true/false, short text, numeric. */
export const FIVE_TYPES = [
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
export const VALID = ["b", ["a", "b"], true, "Rome", 3.14];
export const WRONG_TYPE: unknown[][] = [
  [1, true, ["b"], null, { id: "b" }],
  ["a", [1], ["a", 2], true, null, { a: true }],
  ["true", 1, 0, null, ["true"]],
  [5, false, ["Rome"], null, { text: "Rome" }],
  ["3.14", true, [3.14], null, { value: 3 }],
];

/** Answers as a whole write at `at` stores them: each with the write's time in ms as its seq. */
export const stamped = <A extends { question_id?: string; response: unknown }>(answers: A[], at: string) =>
  answers.map((a) => ({ ...a, seq: Date.parse(at), saved_at: at }));

export async function createQuiz(settings: Record<string, unknown> = {}, questions: unknown[] = FIVE_TYPES) {
  const res = await call("/v1/quizzes", { body: { title: `Submissions ${crypto.randomUUID()}`, settings, questions } });
  expect(res.status, res.text).toBe(201);
  const list = await call(`/v1/quizzes/${res.json.id}/questions?limit=100`);
  expect(list.status, list.text).toBe(200);
  return { id: res.json.id as string, questionIds: (list.json.questions as { id: string }[]).map((q) => q.id) };
}

export async function createUser() {
  const res = await call("/v1/users", { body: { name: "Student", email: `s-${crypto.randomUUID()}@example.com` } });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

export const submit = (quizId: string, body: unknown, auth?: string | false) =>
  call(`/v1/quizzes/${quizId}/submissions`, { body, auth });

export async function createSubmission(quizId: string, userId: string, answers: unknown[] = []) {
  const res = await submit(quizId, { user_id: userId, answers });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

export async function grade(id: string) {
  const res = await call(`/v1/submissions/${id}/grade`, { method: "POST" });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** Every submission a list shows, following next_cursor with pages of `limit`. */
export async function listAll(
  path: `/v1/quizzes/${string}/submissions` | `/v1/users/${string}/submissions`,
  limit: number,
  query = "",
) {
  const pages: Schema<"Submission">[][] = [];
  let cursor: string | null = null;
  do {
    const res: AnswerOf<"/v1/quizzes/{id}/submissions"> = await call(
      `${path}?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ""}`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json.submissions.length).toBeLessThanOrEqual(limit);
    if (res.json.next_cursor) expect(res.headers.get("link")).toContain('rel="next"');
    else expect(res.headers.get("link")).toBeNull();
    pages.push(res.json.submissions);
    cursor = res.json.next_cursor;
  } while (cursor);
  return pages;
}

export const errorPaths = (res: Awaited<ReturnType<typeof call>>) =>
  expectProblem(res, 400, "validation_failed").errors?.map((e) => e.path);

/**
 * A submission as GET /v1/submissions/{id} answers it, less the question each presented entry
 * carries there (`questions[].question`): the representation every other answer and event holds.
 */
export function withoutQuestionViews<T extends { questions?: { question?: unknown }[] | null }>(submission: T): T {
  return {
    ...submission,
    questions: submission.questions?.map(({ question: _, ...entry }) => entry) ?? submission.questions ?? null,
  };
}
