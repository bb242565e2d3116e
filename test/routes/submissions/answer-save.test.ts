import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callRaw, expectProblem, seedApiKey } from "../../support/call";
import {
  createQuiz,
  createSubmission,
  createUser,
  FIVE_TYPES,
  grade,
  ISO_MS,
  MISSING_QUESTION,
  MISSING_SUB,
  stamped,
  VALID,
  WRONG_TYPE,
} from "./fixtures";

const MAX_SEQ = 2 ** 53 - 1;

const save = (id: string, questionId: string, body: unknown, auth?: string) =>
  call(`/v1/submissions/${id}/answers/${questionId}`, { method: "PUT", body, auth });

async function saved(id: string, questionId: string, response: unknown, seq: number) {
  const res = await save(id, questionId, { response, seq });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

async function openSubmission(answers: unknown[] = []) {
  const quiz = await createQuiz();
  const sub = await createSubmission(quiz.id, await createUser(), answers);
  return { quiz, sub, q: quiz.questionIds as [string, string, string, string, string] };
}

const errorPaths = (res: Parameters<typeof expectProblem>[0]) =>
  expectProblem(res, 400, "validation_failed").errors?.map((e) => e.path);

const getSubmission = async (id: string) => (await call(`/v1/submissions/${id}`)).json;

describe("PUT /v1/submissions/{id}/answers/{question_id}", () => {
  it("stores the answer with its seq → 200 { question_id, response, seq, saved_at, stale: false }; GET shows seq and saved_at", async () => {
    const { sub, q } = await openSubmission();
    const body = await saved(sub.id, q[0], "a", 1_795_335_120_417);
    expect(body).toEqual({
      question_id: q[0],
      response: "a",
      seq: 1_795_335_120_417,
      saved_at: expect.stringMatching(ISO_MS),
      stale: false,
    });
    const got = await getSubmission(sub.id);
    expect(got.answers).toEqual([{ question_id: q[0], response: "a", seq: 1_795_335_120_417, saved_at: body.saved_at }]);
    expect(got.updated_at).toBe(body.saved_at);
  });

  it("a higher seq replaces the answer in its place; other questions keep theirs", async () => {
    const { sub, q } = await openSubmission();
    const first = await saved(sub.id, q[0], "a", 10);
    const second = await saved(sub.id, q[2], true, 3);
    const third = await saved(sub.id, q[0], "b", 11);
    expect(third).toMatchObject({ response: "b", seq: 11, stale: false });
    expect(third.saved_at >= first.saved_at).toBe(true);
    expect((await getSubmission(sub.id)).answers).toEqual([
      { question_id: q[0], response: "b", seq: 11, saved_at: third.saved_at },
      { question_id: q[2], response: true, seq: 3, saved_at: second.saved_at },
    ]);
  });

  it("a seq not higher than the stored one changes nothing and answers the stored answer with stale: true", async () => {
    const { sub, q } = await openSubmission();
    const stored = await saved(sub.id, q[3], "Rome", 100);
    const before = await getSubmission(sub.id);
    for (const [response, seq] of [
      ["Paris", 100],
      ["Paris", 99],
      ["Rome", 1],
      [null, 50],
    ] as const) {
      expect(await saved(sub.id, q[3], response, seq)).toEqual({ ...stored, stale: true });
    }
    expect(await getSubmission(sub.id)).toEqual(before);
  });

  it("response null clears the answer and keeps its seq: an older save stays stale, and the grade counts it unanswered", async () => {
    const { sub, q } = await openSubmission();
    await saved(sub.id, q[0], "b", 5);
    await saved(sub.id, q[2], true, 5);
    const cleared = await saved(sub.id, q[0], null, 6);
    expect(cleared).toMatchObject({ question_id: q[0], response: null, seq: 6, stale: false });
    expect(await saved(sub.id, q[0], "b", 4)).toEqual({ ...cleared, stale: true });
    expect((await getSubmission(sub.id)).answers).toContainEqual({
      question_id: q[0],
      response: null,
      seq: 6,
      saved_at: cleared.saved_at,
    });
    // Clearing a question never answered stores the clear, so a delayed older save cannot land.
    await saved(sub.id, q[4], null, 9);
    expect((await saved(sub.id, q[4], 3.14, 8)).stale).toBe(true);
    const graded = await grade(sub.id);
    expect(graded.points_earned).toBe(1); // the true/false alone
    const results = await call(`/v1/submissions/${sub.id}/results`);
    expect(results.json.answers.find((a) => a.question_id === q[0])).toMatchObject({ response: null, points_earned: 0 });
  });

  it("accepts a valid response of each type, and seq from 1 to 2^53 − 1", async () => {
    const { sub, q } = await openSubmission();
    for (const [i, response] of VALID.entries()) {
      expect(await saved(sub.id, q[i] as string, response, i === 0 ? 1 : MAX_SEQ)).toMatchObject({ response, stale: false });
    }
    // Nothing is higher than the largest seq.
    expect((await saved(sub.id, q[1], ["a"], MAX_SEQ)).stale).toBe(true);
    const answers = (await getSubmission(sub.id)).answers;
    expect(answers.map((a) => [a.response, a.seq])).toEqual(VALID.map((r, i) => [r, i === 0 ? 1 : MAX_SEQ]));
  });

  it("a seq outside 1 … 2^53 − 1 or not an integer, a missing or unknown field → 400 naming it, and nothing changes", async () => {
    const { sub, q } = await openSubmission();
    await saved(sub.id, q[0], "a", 7);
    const before = await getSubmission(sub.id);
    const cases: [unknown, string][] = [
      [{ response: "b", seq: 0 }, "seq"],
      [{ response: "b", seq: -1 }, "seq"],
      [{ response: "b", seq: 8.5 }, "seq"],
      [{ response: "b", seq: 2 ** 53 }, "seq"],
      [{ response: "b", seq: 1e300 }, "seq"],
      [{ response: "b", seq: "8" }, "seq"],
      [{ response: "b", seq: null }, "seq"],
      [{ response: "b" }, "seq"],
      [{ seq: 8 }, "response"],
      [{ response: "b", seq: 8, question_id: q[0] }, "question_id"],
    ];
    for (const [body, path] of cases) {
      const res = await save(sub.id, q[0], body);
      expectProblem(res, 400, "validation_failed");
      expect(errorPaths(res), JSON.stringify(body)).toContain(path);
    }
    expect(await getSubmission(sub.id)).toEqual(before);
  });

  it("a response of the wrong type for its question → 400 naming response (as the whole-answers PUT)", async () => {
    const { sub, q } = await openSubmission();
    for (const [i, wrong] of WRONG_TYPE.entries()) {
      for (const response of wrong.filter((r) => r !== null)) {
        const res = await save(sub.id, q[i] as string, { response, seq: 5 });
        expectProblem(res, 400, "validation_failed");
        expect(errorPaths(res)).toEqual(["response"]);
        expect(res.problem.errors?.[0]?.message).toContain(`A ${FIVE_TYPES[i]?.type} response`);
      }
    }
    // The bytes limit of today: a short-text response of at most 1 000 characters.
    expectProblem(await save(sub.id, q[3], { response: "x".repeat(1001), seq: 5 }), 400, "validation_failed");
    expect((await saved(sub.id, q[3], "x".repeat(1000), 5)).stale).toBe(false);
    expectProblem(await save(sub.id, q[0], { response: "z", seq: 6 }), 400, "validation_failed"); // not an option id
    expect((await getSubmission(sub.id)).answers).toHaveLength(1);
  });

  it("a question the submission does not present → 400 naming question_id", async () => {
    const { sub } = await openSubmission();
    const other = await createQuiz();
    for (const questionId of [other.questionIds[0] as string, MISSING_QUESTION]) {
      const res = await save(sub.id, questionId, { response: "a", seq: 1 });
      expectProblem(res, 400, "validation_failed");
      expect(errorPaths(res)).toEqual(["question_id"]);
    }
    // A pooled question the draw left out.
    const pooled = await createQuiz({ pools: [{ pool: "p", pick: 1 }] }, [
      { type: "true_false", prompt: "One?", correct: true, pool: "p" },
      { type: "true_false", prompt: "Two?", correct: true, pool: "p" },
    ]);
    const drawn = await createSubmission(pooled.id, await createUser());
    const shown = (drawn.questions ?? []).map((p) => p.question_id);
    expect(shown).toHaveLength(1);
    const left = pooled.questionIds.find((id) => !shown.includes(id)) as string;
    expectProblem(await save(drawn.id, left, { response: true, seq: 1 }), 400, "validation_failed");
    expect((await saved(drawn.id, shown[0] as string, true, 1)).stale).toBe(false);
    expect((await getSubmission(drawn.id)).answers.map((a) => a.question_id)).toEqual(shown);
  });

  it("an unknown or malformed submission or question id → 404", async () => {
    const { sub, q } = await openSubmission();
    expectProblem(await save(MISSING_SUB, q[0], { response: "a", seq: 1 }), 404, "not_found");
    expectProblem(
      await callRaw(`/v1/submissions/sub_nope/answers/${q[0]}`, { method: "PUT", body: { response: "a", seq: 1 } }),
      404,
    );
    expectProblem(
      await callRaw(`/v1/submissions/${sub.id}/answers/quiz_nope`, { method: "PUT", body: { response: "a", seq: 1 } }),
      404,
    );
  });

  it("after grading → 409 submission_graded, whatever the seq, and the graded answers stay", async () => {
    const { sub, q } = await openSubmission();
    await saved(sub.id, q[2], false, 3);
    await grade(sub.id);
    const before = await getSubmission(sub.id);
    for (const body of [
      { response: true, seq: 4 },
      { response: true, seq: 2 },
      { response: null, seq: MAX_SEQ },
    ]) {
      const problem = expectProblem(await save(sub.id, q[2], body), 409, "submission_graded");
      expect(problem.status).toBe(409);
    }
    expect(await getSubmission(sub.id)).toEqual(before);
  });

  it("from deadline_at on → 409 deadline_passed, and nothing changes", async () => {
    const { quiz, q } = await openSubmission();
    const timed = await createSubmission(quiz.id, await createUser());
    await saved(timed.id, q[0], "a", 1);
    await env.DB.prepare("UPDATE submissions SET deadline_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), timed.id)
      .run();
    const before = await getSubmission(timed.id);
    expectProblem(await save(timed.id, q[0], { response: "b", seq: 2 }), 409, "deadline_passed");
    expectProblem(await save(timed.id, q[1], { response: ["a"], seq: 2 }), 409, "deadline_passed");
    expect(await getSubmission(timed.id)).toEqual(before);
  });

  it("the whole-answers PUT resets every seq to its time in ms: saves sent before it are stale, later ones land", async () => {
    const { sub, q } = await openSubmission();
    await saved(sub.id, q[0], "a", 5);
    await saved(sub.id, q[2], true, 5);
    const put = await call(`/v1/submissions/${sub.id}/answers`, {
      method: "PUT",
      body: { answers: [{ question_id: q[2], response: false }] },
    });
    expect(put.status, put.text).toBe(200);
    const at = put.json.updated_at;
    const ms = Date.parse(at);
    expect(put.json.answers).toEqual(stamped([{ question_id: q[2], response: false }], at));
    // A question the PUT answered, and one it left out (unanswered now): both at the PUT's seq.
    expect(await saved(sub.id, q[2], true, ms)).toEqual({
      question_id: q[2],
      response: false,
      seq: ms,
      saved_at: at,
      stale: true,
    });
    expect(await saved(sub.id, q[0], "b", ms - 1)).toEqual({
      question_id: q[0],
      response: null,
      seq: ms,
      saved_at: at,
      stale: true,
    });
    expect(await saved(sub.id, q[0], "b", ms + 1)).toMatchObject({ response: "b", seq: ms + 1, stale: false });
  });

  it("a submission created with answers stores them at its creation time in ms", async () => {
    const quiz = await createQuiz();
    const sub = await createSubmission(quiz.id, await createUser(), [{ question_id: quiz.questionIds[0], response: "a" }]);
    const ms = Date.parse(sub.created_at);
    expect(sub.answers).toEqual([{ question_id: quiz.questionIds[0], response: "a", seq: ms, saved_at: sub.created_at }]);
    expect((await saved(sub.id, quiz.questionIds[0] as string, "b", ms)).stale).toBe(true);
    expect((await saved(sub.id, quiz.questionIds[0] as string, "b", ms + 1)).stale).toBe(false);
  });

  it("needs submissions:write: submissions:read alone → 403, no credential → 401, and nothing changes", async () => {
    const { sub, q } = await openSubmission();
    const { key } = await seedApiKey(["submissions:read", "quizzes:read"]);
    expectProblem(await save(sub.id, q[0], { response: "a", seq: 1 }, key), 403, "insufficient_scope");
    expectProblem(
      await callRaw(`/v1/submissions/${sub.id}/answers/${q[0]}`, { method: "PUT", body: { response: "a", seq: 1 }, auth: false }),
      401,
    );
    const { key: writer } = await seedApiKey(["submissions:write"]);
    expect((await save(sub.id, q[0], { response: "a", seq: 1 }, writer)).status).toBe(200);
    expect((await getSubmission(sub.id)).answers).toHaveLength(1);
  });
});
