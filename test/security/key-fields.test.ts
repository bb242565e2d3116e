import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { QUESTION_TYPE_MODULES, QUESTION_TYPES } from "../../src/domain/question-types";
import { call, seedApiKey } from "../support/call";

/**
 * docs/security.md, "Who sees answer keys": every question type's key fields, as its module
 * (src/domain/question-types/) names them, are hidden alike — from a quizzes:read credential's
 * question reads, from results under the reveal policy "never", and from the question's events.
 * The types, their key fields and a question of each come from the registry (each module's
 * example): a type added there is covered here as it is.
 */

let reader: string;
let resultsReader: string;
beforeAll(async () => {
  reader = (await seedApiKey(["quizzes:read"], { name: "key-field reader" })).key;
  resultsReader = (await seedApiKey(["submissions:read"], { name: "key-field results reader" })).key;
});

async function ok(path: string, options: { method?: string; body?: unknown; auth?: string } = {}, status = 200) {
  const res = await call(path as "/v1/quizzes", options as object);
  expect(res.status, `${path}: ${res.text}`).toBe(status);
  return res.json as unknown as Record<string, unknown> & { id: string };
}

/** An answer's own fields in results (AnswerResult): its `correct` says whether the answer was right, whatever the type. */
const RESULT_FIELDS = new Set([
  "question_id",
  "question_version",
  "type",
  "response",
  "correct",
  "points_earned",
  "points_possible",
  "feedback",
  "explanation",
  "option_feedback",
  "correct_answer",
]);

/** Every property name anywhere in a JSON value. */
function fieldNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) fieldNames(item, into);
  else if (typeof value === "object" && value !== null)
    for (const [name, inner] of Object.entries(value)) {
      into.add(name);
      fieldNames(inner, into);
    }
  return into;
}

/** A quiz of one question, the type's example, under the reveal policy given. */
async function quizOf(type: (typeof QUESTION_TYPES)[number], policy: string) {
  const quiz = await ok(
    "/v1/quizzes",
    {
      body: {
        title: `Key fields of ${type}`,
        settings: { show_correct_answers: policy },
        questions: [QUESTION_TYPE_MODULES[type].example],
      },
    },
    201,
  );
  const [questionId] = quiz.question_ids as string[];
  return { quizId: quiz.id, questionId: questionId as string };
}

/** The results of a graded submission (no answers), as a credential without quizzes:write reads them. */
async function gradedResults(quizId: string) {
  const user = await ok("/v1/users", { body: { name: "Learner", email: `keys-${crypto.randomUUID()}@example.com` } }, 201);
  const submission = await ok(`/v1/quizzes/${quizId}/submissions`, { body: { user_id: user.id } }, 201);
  await ok(`/v1/submissions/${submission.id}/grade`, { method: "POST" });
  return ok(`/v1/submissions/${submission.id}/results`, { auth: resultsReader });
}

describe.each(QUESTION_TYPES)("%s: every key field its module names is hidden alike", (type) => {
  const { keyFields } = QUESTION_TYPE_MODULES[type];

  it("names its key fields, and the author (quizzes:write) reads every one of them", async () => {
    expect(keyFields.length).toBeGreaterThan(0);
    const { quizId, questionId } = await quizOf(type, "never");
    const asWritten = await ok(`/v1/quizzes/${quizId}/questions/${questionId}`);
    for (const field of keyFields) expect(asWritten, field).toHaveProperty(field);
  });

  it("hidden from a quizzes:read credential, in the list and in the question's own read", async () => {
    const { quizId, questionId } = await quizOf(type, "always");
    const list = await ok(`/v1/quizzes/${quizId}/questions`, { auth: reader });
    const one = await ok(`/v1/quizzes/${quizId}/questions/${questionId}`, { auth: reader });
    for (const shown of [list, one]) {
      const names = fieldNames(shown);
      for (const field of keyFields) expect(names.has(field), field).toBe(false);
    }
    expect(one).toMatchObject({ feedback: {}, explanation: null });
  });

  it('hidden from results under "never"; the same results under "always" show the key', async () => {
    const hidden = await gradedResults((await quizOf(type, "never")).quizId);
    const answers = hidden.answers as Record<string, unknown>[];
    expect(answers).toHaveLength(1);
    for (const answer of answers) {
      expect(answer).not.toHaveProperty("correct_answer");
      expect(answer).toMatchObject({ feedback: null, explanation: null });
    }
    const names = fieldNames(hidden);
    for (const field of keyFields) if (!RESULT_FIELDS.has(field)) expect(names.has(field), field).toBe(false);
    const shown = await gradedResults((await quizOf(type, "always")).quizId);
    expect((shown.answers as unknown[])[0]).toHaveProperty("correct_answer");
  });

  it("left out of the question's events: the event carries the question as quizzes:read reads it", async () => {
    const { quizId, questionId } = await quizOf(type, "always");
    const row = await env.DB.prepare(
      "SELECT data FROM events WHERE type = 'question.created' AND json_extract(data, '$.object.id') = ?",
    )
      .bind(questionId)
      .first<{ data: string }>();
    const { object } = JSON.parse(row!.data);
    const names = fieldNames(object);
    for (const field of keyFields) expect(names.has(field), field).toBe(false);
    expect(object).toEqual(await ok(`/v1/quizzes/${quizId}/questions/${questionId}`, { auth: reader }));
  });
});
