import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { countingEnv, d1Statements, notingQueue } from "../support/binding-counter";
import { call } from "../support/call";
import { expectItemAnalysisMatch, referenceItemAnalysis } from "../support/item-analysis-reference";
import {
  expectQuizAnalyticsMatch,
  expectUserAnalyticsMatch,
  recomputeQuizAnalytics,
  recomputeUserAnalytics,
} from "../support/recompute";

/**
 * A regrade at scale runs in chunks: every consumer invocation stays under D1's limit of 1 000
 * queries (statements) per invocation, a delivery that fails part way resumes from the job's
 * cursor without applying a chunk twice, and the figures end exact. Submissions are seeded with
 * SQL (graded under the old key, with every aggregate built from them), as grading 20 000 through
 * the API would take minutes.
 */

const D1_QUERIES_PER_INVOCATION = 1000;
const QUESTIONS = 4;
const JOBS_QUEUE = "quiz-api-jobs";

/**
 * A quiz of four one-point true/false questions and `count` graded submissions, seeded: two
 * attempts by each of count/2 users (submission i answers question k true when bit k of i is set).
 */
async function seededQuiz(count: number) {
  const questions = Array.from({ length: QUESTIONS }, (_, i) => ({ type: "true_false", prompt: `S${i}?`, correct: true }));
  const quiz = await call("/v1/quizzes", { body: { title: "At scale", questions } });
  const quizId = quiz.json.id as string;
  const ids = quiz.json.question_ids as string[];
  const tag = crypto
    .randomUUID()
    .replaceAll("-", "")
    .slice(0, 9)
    .replace(/[^0-7]/g, "0");
  const now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
  await env.DB.prepare(
    `WITH RECURSIVE n(u) AS (SELECT 1 UNION ALL SELECT u + 1 FROM n WHERE u < ?1 / 2)
     INSERT INTO users (id, name, email, email_normalized, role, created_at, updated_at)
     SELECT printf('user_%s%017d', ?2, u), 'Seeded', printf('s%s-%d@example.com', ?2, u), printf('s%s-%d@example.com', ?2, u), 'student', ${now}, ${now} FROM n`,
  )
    .bind(count, tag)
    .run();
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1),
     a AS (SELECT i,
       (SELECT json_group_array(json_object('question_id', json_extract(?4, '$[' || k.value || ']'), 'response', json(CASE WHEN (i >> k.value) & 1 THEN 'true' ELSE 'false' END))) FROM json_each('[0,1,2,3]') k) AS answers,
       (SELECT json_group_array(json_object('question_id', json_extract(?4, '$[' || k.value || ']'), 'version', 1, 'correct', json(CASE WHEN (i >> k.value) & 1 THEN 'true' ELSE 'false' END), 'points_earned', (i >> k.value) & 1, 'points_possible', 1)) FROM json_each('[0,1,2,3]') k) AS results,
       ((i & 1) + ((i >> 1) & 1) + ((i >> 2) & 1) + ((i >> 3) & 1)) AS right FROM n)
     INSERT INTO submissions (id, quiz_id, user_id, attempt, status, answers, answers_revision, score, points_earned, points_possible, feedback, results, grade_token, graded_by, created_at, updated_at, graded_at)
     SELECT printf('sub_%s%017d', ?3, i), ?2, printf('user_%s%017d', ?3, (i + 1) / 2), 2 - (i % 2), 'graded', answers, 0, right * 25, right, 4, 'seeded', results, 'seed-' || i, 'request', ${now}, ${now}, ${now} FROM a`,
  )
    .bind(count, quizId, tag, JSON.stringify(ids))
    .run();
  // Every aggregate, from the seeded rows.
  const graded = "FROM submissions WHERE quiz_id = ?1 AND status = 'graded'";
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO quiz_stats (quiz_id, total_attempts, unique_users, mean_score, m2_score, min_score, max_score, buckets)
       SELECT ?1, count(*), count(DISTINCT user_id), avg(score), (SELECT total((score - m.a) * (score - m.a)) ${graded}), min(score), max(score),
         (SELECT json_group_array(c) FROM (SELECT b.value AS bucket, (SELECT count(*) ${graded} AND min(CAST(score / 10 AS INTEGER), 9) = b.value) AS c FROM json_each('[0,1,2,3,4,5,6,7,8,9]') b ORDER BY b.value))
       FROM submissions, (SELECT avg(score) AS a ${graded}) m WHERE quiz_id = ?1 AND status = 'graded'`,
    ).bind(quizId),
    // Item analysis's sums, one row per population: each question [n, Σx, Σx², Σp, Σt, Σt², Σxt, right].
    env.DB.prepare(
      `INSERT INTO item_sums (quiz_id, attempts, n, sum_t, sum_tt, items, options)
       SELECT ?1, p.attempts, count(*), sum(t), total(t * t),
         (SELECT json_group_object(q, json_array(n, x, json(printf('%!.17g', xx)), sp, st, json(printf('%!.17g', tt)), json(printf('%!.17g', xt)), c)) FROM (
            SELECT q, count(*) AS n, sum(x) AS x, total(x * x) AS xx, sum(1000000) AS sp, sum(t) AS st, total(t * t) AS tt,
              total(x * t) AS xt, sum(x / 1000000) AS c
            FROM (SELECT json_extract(r.value, '$.question_id') AS q, CAST(json_extract(r.value, '$.points_earned') * 1000000 AS INTEGER) AS x,
                    CAST(s.points_earned * 1000000 AS INTEGER) AS t
                  FROM submissions s, json_each(s.results) r WHERE s.quiz_id = ?1 AND (p.attempts = 'all' OR s.attempt = 1))
            GROUP BY q)),
         '{}'
       FROM (SELECT CAST(points_earned * 1000000 AS INTEGER) AS t, attempt ${graded}) v, (SELECT 'all' AS attempts UNION ALL SELECT 'first') p
       WHERE p.attempts = 'all' OR v.attempt = 1 GROUP BY p.attempts`,
    ).bind(quizId),
    env.DB.prepare(
      `INSERT INTO user_stats (user_id, total_attempts, quizzes_taken, mean_score, min_score, max_score, last_graded_at)
       SELECT user_id, count(*), 1, avg(score), min(score), max(score), max(graded_at) ${graded} GROUP BY user_id`,
    ).bind(quizId),
    env.DB.prepare(
      `INSERT INTO grades (quiz_id, user_id, attempts, first_attempt, first_score, latest_attempt, latest_score, highest_score, score_sum, updated_at)
       SELECT ?1, user_id, count(*), 1, sum(CASE WHEN attempt = 1 THEN score END), 2, sum(CASE WHEN attempt = 2 THEN score END), max(score), sum(score), max(graded_at)
       ${graded} GROUP BY user_id`,
    ).bind(quizId),
  ]);
  const userId = `user_${tag}${"1".padStart(17, "0")}`;
  return { quizId, userId, ids };
}

/** The regrade job, stored as POST /v1/quizzes/{id}/regrade stores it, but handed to no queue: the test delivers it. */
async function storedJob(quizId: string) {
  const id = `job_${crypto.randomUUID().replaceAll("-", "").slice(0, 26)}`;
  await env.DB.prepare(
    `INSERT INTO jobs (id, type, status, scope, quiz_id, params, created_at, updated_at)
     VALUES (?, 'regrade', 'queued', 'quizzes:write', ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
  )
    .bind(id, quizId, JSON.stringify({ question_ids: null, policy: "current_key", dry_run: false }))
    .run();
  return id;
}

/** One delivery of the job's message to the consumer, as the jobs queue makes it. */
async function deliver(runEnv: Env, jobId: string) {
  const batch = createMessageBatch(JOBS_QUEUE, [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { kind: "job", job_id: jobId } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, runEnv, ctx);
  return getQueueResult(batch, ctx);
}

const jobRow = (id: string) =>
  env.DB.prepare("SELECT status, done, total, cursor, result FROM jobs WHERE id = ?").bind(id).first<any>();

async function expectExact(quizId: string, userId: string) {
  expectQuizAnalyticsMatch((await call(`/v1/analytics/quiz/${quizId}`)).json, await recomputeQuizAnalytics(quizId));
  expectUserAnalyticsMatch((await call(`/v1/analytics/user/${userId}`)).json, await recomputeUserAnalytics(userId));
  for (const attempts of ["all", "first"] as const)
    expectItemAnalysisMatch(
      (await call(`/v1/analytics/quiz/${quizId}/items?attempts=${attempts}`)).json,
      await referenceItemAnalysis(quizId, attempts),
    );
}

describe("a regrade in chunks", () => {
  it("of 20 000 submissions: every invocation under D1's query limit; all regraded once; the figures exact", async () => {
    const COUNT = 20_000;
    const { quizId, userId, ids } = await seededQuiz(COUNT);
    // The first question's key flips: every submission's score moves by ±25.
    expect((await call(`/v1/quizzes/${quizId}/questions/${ids[0]}`, { method: "PATCH", body: { correct: false } })).status).toBe(
      200,
    );
    const jobId = await storedJob(quizId);

    const counted = countingEnv(env);
    const noted = notingQueue(env.JOBS_QUEUE);
    const runEnv = { ...counted.env, JOBS_QUEUE: noted.queue };
    const perInvocation: number[] = [];
    for (let i = 0; i < 2_000; i++) {
      counted.reset();
      const result = await deliver(runEnv, jobId);
      expect(result.retryMessages).toEqual([]);
      perInvocation.push(d1Statements(counted.log));
      if ((await jobRow(jobId)).status === "succeeded") break;
    }
    const job = await jobRow(jobId);
    expect(job.status).toBe("succeeded");
    // Chunks: many invocations, each far from the limit, each handing the next step to the queue.
    expect(perInvocation.length).toBeGreaterThan(20);
    expect(Math.max(...perInvocation)).toBeLessThan(D1_QUERIES_PER_INVOCATION);
    expect(noted.sent.length).toBeGreaterThan(0);
    expect(JSON.parse(job.result)).toEqual({
      dry_run: false,
      submissions_considered: COUNT,
      submissions_changed: COUNT,
      mean_score_before: 50,
      mean_score_after: 50,
    });
    // Each submission regraded once: the first answer's points flipped, version 2 recorded, one event each.
    const check = await env.DB.prepare(
      `SELECT count(*) AS n,
         sum(json_extract(results, '$[0].version') = 2) AS versions,
         sum(json_extract(results, '$[0].points_earned') = 1 - ((attempt) & 1)) AS flipped,
         (SELECT count(*) FROM job_changes WHERE job_id = ?2) AS changes,
         (SELECT count(*) FROM events WHERE type = 'submission.regraded' AND json_extract(data, '$.object.quiz_id') = ?1) AS events
       FROM submissions WHERE quiz_id = ?1`,
    )
      .bind(quizId, jobId)
      .first();
    expect(check).toEqual({ n: COUNT, versions: COUNT, flipped: COUNT, changes: COUNT, events: COUNT });
    await expectExact(quizId, userId);
  }, 300_000);

  it("a delivery that fails part way resumes from the cursor: no chunk applied twice, none skipped", async () => {
    const COUNT = 500;
    const { quizId, userId, ids } = await seededQuiz(COUNT);
    await call(`/v1/quizzes/${quizId}/questions/${ids[1]}`, { method: "PATCH", body: { correct: false } });
    const jobId = await storedJob(quizId);
    const noted = notingQueue(env.JOBS_QUEUE);
    // One delivery commits a chunk; the next fails when D1 refuses its chunk's write.
    expect((await deliver({ ...env, JOBS_QUEUE: noted.queue }, jobId)).retryMessages).toEqual([]);
    const committed = (await jobRow(jobId)).done;
    let batches = 0;
    const failing = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "batch")
          return (statements: D1PreparedStatement[]) => {
            if (++batches === 2) return Promise.reject(new Error("D1 is unavailable"));
            return target.batch(statements);
          };
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const failed = await deliver({ ...env, DB: failing, JOBS_QUEUE: noted.queue }, jobId);
    expect(failed.retryMessages.length).toBe(1); // the queue delivers it again
    const halfway = await jobRow(jobId);
    expect(halfway.status).toBe("running");
    expect(halfway.done).toBe(committed);
    expect(halfway.done).toBeLessThan(COUNT);
    // The redelivery, and a duplicate of it, finish the job.
    for (let i = 0; i < 50 && (await jobRow(jobId)).status !== "succeeded"; i++) {
      await Promise.all([
        deliver({ ...env, JOBS_QUEUE: noted.queue }, jobId),
        deliver({ ...env, JOBS_QUEUE: noted.queue }, jobId),
      ]);
    }
    const job = await jobRow(jobId);
    expect(job.status).toBe("succeeded");
    expect(job.done).toBe(COUNT);
    const changed = await env.DB.prepare(
      "SELECT count(*) AS n, (SELECT count(*) FROM events WHERE type = 'submission.regraded' AND json_extract(data, '$.object.quiz_id') = ?1) AS events FROM job_changes WHERE job_id = ?2",
    )
      .bind(quizId, jobId)
      .first<{ n: number; events: number }>();
    expect(changed).toEqual({ n: COUNT, events: COUNT });
    await expectExact(quizId, userId);
  }, 120_000);
});
