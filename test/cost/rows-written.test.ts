import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import worker from "../../src/index";
import { rowNoting } from "../support/binding-counter";
import { type AnswerOf, BASE, call, defaultKey, type KnownPath } from "../support/call";
import { answersFor, ITEM_QUESTIONS } from "../support/item-fixtures";

/**
 * Rows written are what D1 bills ($1.00 per million) and what its one writer per database spends,
 * so they are the price and the ceiling of an exam's last minute (docs/performance.md, "Rows
 * written per grade"). Counted as the bench counts them: D1's `meta.rows_written` of every
 * statement, index entries included. A grade writes one row per aggregate, whatever the number of
 * questions: item analysis's sums are one row per population, not one per question and option.
 */

/** What a grade of a 20-question quiz may write (it wrote about 98 with a row per question and option). */
const GRADE_ROWS_20_QUESTIONS = 40;

const newUser = async () =>
  (await call("/v1/users", { body: { name: "R", email: `${crypto.randomUUID()}@example.com` } })).json.id as string;

/**
 * A quiz of `count` questions of every type (choice questions among them), already graded once by
 * another user: what is measured is the steady state, not the quiz's very first grade (which also
 * creates the quiz's own aggregate rows).
 */
async function quizOf(count: number, settings: Record<string, unknown> = {}) {
  const questions = Array.from({ length: count }, (_, i) => ITEM_QUESTIONS[i % ITEM_QUESTIONS.length]);
  const quiz = await call("/v1/quizzes", { body: { title: `Rows ${count}`, questions, settings } });
  expect(quiz.status, quiz.text).toBe(201);
  const made = { quizId: quiz.json.id as string, questionIds: quiz.json.question_ids as string[] };
  const warm = await submitted(made.quizId, made.questionIds, await newUser(), 0);
  expect((await call(`/v1/submissions/${warm}/grade`, { method: "POST" })).status).toBe(200);
  return made;
}

async function submitted(quizId: string, questionIds: string[], userId: string, seed: number) {
  const picks = questionIds.map((_, i) => (seed * 5 + i) % 7);
  const sub = await call(`/v1/quizzes/${quizId}/submissions`, {
    body: { user_id: userId, answers: answersFor(questionIds, picks) },
  });
  expect(sub.status, sub.text).toBe(201);
  return sub.json.id as string;
}

/** One request through the app with D1's rows noted; its after-response work is settled and counted too. */
async function rowsOf<P extends KnownPath, M extends "POST" | "PUT">(path: P, init: { method: M; body?: unknown }) {
  const perStatement: { sql: string; written: number }[] = [];
  const DB = rowNoting(env.DB, (sql, _read, written) => perStatement.push({ sql, written }));
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { authorization: `Bearer ${await defaultKey()}` };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await app.fetch(
    new Request(`${BASE}${path}`, {
      method: init.method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
    { ...env, DB },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  expect(res.status, await res.clone().text()).toBe(200);
  // Usage flushes of the credential are its own cost (test/credential-simulation.ts), not the grade's.
  const own = perStatement.filter((s) => !/api_key_usage|api_keys/.test(s.sql));
  return {
    written: own.reduce((sum, s) => sum + s.written, 0),
    perStatement: own,
    body: (await res.json()) as AnswerOf<P, { method: M }>["json"],
  };
}

const grade = (id: string) => rowsOf(`/v1/submissions/${id}/grade`, { method: "POST" });

describe("rows written per grade", () => {
  it(`a 20-question quiz: at most ${GRADE_ROWS_20_QUESTIONS} (a new user's first attempt, a later one, a timed one)`, async () => {
    const { quizId, questionIds } = await quizOf(20);
    const userId = await newUser();
    const first = await grade(await submitted(quizId, questionIds, userId, 1));
    const later = await grade(await submitted(quizId, questionIds, userId, 2));
    const timed = await quizOf(20, { time_limit_seconds: 600 });
    const withDeadline = await grade(await submitted(timed.quizId, timed.questionIds, await newUser(), 3));
    for (const g of [first, later, withDeadline]) expect(g.written).toBeLessThanOrEqual(GRADE_ROWS_20_QUESTIONS);
    // The figures docs/performance.md states: a user's first attempt creates their grade (its row and
    // two index entries) and their user_stats row and counts in both populations of item analysis; a
    // later attempt updates one row each. The overdue index entry a deadline's grade removes is not
    // a row written (D1 counts entries written, not entries deleted).
    expect({ first: first.written, later: later.written, withDeadline: withDeadline.written }).toEqual({
      first: 14,
      later: 10,
      withDeadline: 14,
    });
  });

  it("the same rows whatever the number of questions: 5, 20 and 200", async () => {
    const rows: number[] = [];
    for (const count of [5, 20, 200]) {
      const { quizId, questionIds } = await quizOf(count);
      const userId = await newUser();
      await grade(await submitted(quizId, questionIds, userId, 1));
      rows.push((await grade(await submitted(quizId, questionIds, userId, 2))).written);
    }
    expect(new Set(rows).size).toBe(1);
  });

  it("grading again writes nothing", async () => {
    const { quizId, questionIds } = await quizOf(20);
    const id = await submitted(quizId, questionIds, await newUser(), 4);
    await grade(id);
    expect((await grade(id)).written).toBe(0);
  });
});

describe("rows written per review", () => {
  const ESSAY_QUIZ = [...ITEM_QUESTIONS, ...ITEM_QUESTIONS, { type: "essay", prompt: "Explain.", points: 10 }];

  it("the last essay's review counts the submission like a grade; a review after that moves it like a regrade", async () => {
    const quiz = await call("/v1/quizzes", { body: { title: "Essay rows", questions: ESSAY_QUIZ } });
    const ids = quiz.json.question_ids as string[];
    const essay = ids.at(-1)!;
    const warm = await call(`/v1/quizzes/${quiz.json.id}/submissions`, { body: { user_id: await newUser(), answers: [] } });
    expect((await call(`/v1/submissions/${warm.json.id}/grade`, { method: "POST" })).status).toBe(200);
    const answers = [...answersFor(ids.slice(0, -1), [1, 2, 3, 0, 1, 2, 1, 0, 3, 2]), { question_id: essay, response: "Text." }];
    const sub = await call(`/v1/quizzes/${quiz.json.id}/submissions`, { body: { user_id: await newUser(), answers } });
    expect((await call(`/v1/submissions/${sub.json.id}/grade`, { method: "POST" })).json.status).toBe("needs_review");
    const path: `/v1/submissions/${string}/reviews/${string}` = `/v1/submissions/${sub.json.id}/reviews/${essay}`;
    const counted = await rowsOf(path, { method: "PUT", body: { points: 6 } });
    expect(counted.body.status).toBe("graded");
    const moved = await rowsOf(path, { method: "PUT", body: { points: 9 } });
    // Counted: as a new user's first grade. Moved: the claim, both populations' item sums, the quiz's,
    // user's and grade's rows and submission.regraded (the quiz's range is read again only when this
    // score was its lowest or highest).
    expect({ counted: counted.written, moved: moved.written }).toEqual({ counted: 14, moved: 11 });
  });
});

describe("rows written per regrade chunk", () => {
  it("40 graded submissions of a 20-question quiz moved in one chunk: at most 14 rows each", async () => {
    const { quizId, questionIds } = await quizOf(20);
    const users = await Promise.all(Array.from({ length: 20 }, newUser));
    // 39 and quizOf's own: 40, one chunk.
    for (let i = 0; i < 39; i++) {
      const id = await submitted(quizId, questionIds, users[i % 20]!, i);
      expect((await call(`/v1/submissions/${id}/grade`, { method: "POST" })).status).toBe(200);
    }
    // The true/false questions' key flips: every submission's score moves.
    for (const [i, id] of questionIds.entries())
      if (i % ITEM_QUESTIONS.length === 0)
        expect((await call(`/v1/quizzes/${quizId}/questions/${id}`, { method: "PATCH", body: { correct: false } })).status).toBe(
          200,
        );
    const jobId = `job_${crypto.randomUUID().replaceAll("-", "").slice(0, 26)}`;
    await env.DB.prepare(
      `INSERT INTO jobs (id, type, status, scope, quiz_id, params, created_at, updated_at)
       VALUES (?, 'regrade', 'queued', 'quizzes:write', ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
    )
      .bind(jobId, quizId, JSON.stringify({ question_ids: null, policy: "current_key", dry_run: false }))
      .run();
    let written = 0;
    const DB = rowNoting(env.DB, (_sql, _read, w) => {
      written += w;
    });
    // Deliveries as the jobs queue makes them, until the job ends: 40 submissions are one chunk,
    // and the delivery after it finds nothing more and finishes the job. The next step is handed to
    // no real queue, so that every delivery is one of these, counted.
    const JOBS_QUEUE = { send: async () => {}, sendBatch: async () => {} } as unknown as Queue;
    let deliveries = 0;
    for (let status = "queued"; status !== "succeeded" && deliveries < 5; deliveries++) {
      const batch = createMessageBatch("quiz-api-jobs", [
        { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { kind: "job", job_id: jobId } },
      ]);
      const ctx = createExecutionContext();
      await worker.queue(batch, { ...env, DB, JOBS_QUEUE }, ctx);
      expect((await getQueueResult(batch, ctx)).retryMessages).toEqual([]);
      status = (await env.DB.prepare("SELECT status FROM jobs WHERE id = ?").bind(jobId).first<{ status: string }>())!.status;
    }
    const job = await env.DB.prepare("SELECT status, result FROM jobs WHERE id = ?")
      .bind(jobId)
      .first<{ status: string; result: string }>();
    expect(job!.status).toBe("succeeded");
    expect(JSON.parse(job!.result).submissions_changed).toBe(40);
    // Per submission: its claim, item sums (both populations for a user's first), quiz, user and
    // grade rows, its change row (and its key's entry) and its submission.regraded event (its row and
    // four index entries): 12 or 13; then the job's own rows (509 in all here; 3 020 when item sums
    // were a row per question and option).
    expect(deliveries).toBe(2);
    expect(written / 40).toBeLessThanOrEqual(14);
  });
});
