import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deadlineFor } from "../../src/domain/attempts";
import worker from "../../src/index";
import { DEADLINE_CHUNK, type QueueMessage } from "../../src/queue/messages";
import { countingEnv, notingQueue } from "../support/binding-counter";
import { call } from "../support/call";

/**
 * Grading at deadlines (docs/api.md): the cron (scheduled handler) hands overdue open submissions
 * to the real local queue, whose consumer grades each exactly once alongside racing grade calls,
 * marked graded_by "deadline", in invocations whose D1 calls are bounded however large the backlog.
 */

const QUEUE = "quiz-api-events";
/** The consumer's max_batch_size (wrangler.toml): the most messages one invocation receives. */
const MAX_BATCH = 10;
/** D1 round trips a grade takes when nothing races it: one batch to read, one to write. */
const D1_PER_GRADE = 2;
/** Workers' limit on D1 queries per invocation (paid plan). */
const D1_PER_INVOCATION_LIMIT = 1000;

const TF = [
  { type: "true_false", prompt: "One?", correct: true },
  { type: "true_false", prompt: "Two?", correct: false },
];

async function quizAndUser() {
  const quiz = await call("/v1/quizzes", {
    body: { title: `Timed ${crypto.randomUUID()}`, questions: TF, settings: { time_limit_seconds: 60 } },
  });
  expect(quiz.status, quiz.text).toBe(201);
  const user = await call("/v1/users", { body: { name: "Ada", email: `${crypto.randomUUID()}@example.com` } });
  expect(user.status, user.text).toBe(201);
  return { quizId: quiz.json.id as string, questionIds: quiz.json.question_ids as string[], userId: user.json.id as string };
}

/** Moves a submission's deadline into the past, as the passing of its time limit would. */
const expire = (id: string, msAgo = 1000) =>
  env.DB.prepare("UPDATE submissions SET deadline_at = ? WHERE id = ?")
    .bind(new Date(Date.now() - msAgo).toISOString(), id)
    .run();

const row = <T>(query: string, ...values: unknown[]) =>
  env.DB.prepare(query)
    .bind(...values)
    .first<T>();

const gradedEventsOf = async (submissionId: string) =>
  (await row<{ n: number }>(
    "SELECT count(*) AS n FROM events WHERE type = 'submission.graded' AND json_extract(data, '$.object.id') = ?",
    submissionId,
  ))!.n;

const noting = (queue: Queue) => notingQueue<QueueMessage>(queue);

const deadlineMessages = (sent: QueueMessage[]) =>
  sent.filter((m): m is Extract<QueueMessage, { kind: "deadline" }> => m.kind === "deadline");

async function runCron(runEnv: Env) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), runEnv, ctx);
  await waitOnExecutionContext(ctx);
}

/** Delivers the messages to the consumer as the queue does, in one invocation; all must be acknowledged. */
async function consume(runEnv: Env, bodies: QueueMessage[]) {
  const batch = createMessageBatch(
    QUEUE,
    bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, runEnv, ctx);
  const result = await getQueueResult(batch, ctx);
  expect(result.retryMessages).toEqual([]);
  expect(result.explicitAcks.length).toBe(bodies.length);
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("grading at deadlines", () => {
  it("the cron hands an overdue open submission to the queue, whose consumer grades it: graded_by deadline, one submission.graded", async () => {
    const { quizId, questionIds, userId } = await quizAndUser();
    const answers = [{ question_id: questionIds[0], response: true }];
    const make = async () => {
      const res = await call(`/v1/quizzes/${quizId}/submissions`, { body: { user_id: userId, answers } });
      expect(res.status, res.text).toBe(201);
      return res.json.id as string;
    };
    // An endpoint wants submission.graded, so the consumer hands its events straight to the queue.
    const endpoint = await call("/v1/webhook-endpoints", {
      body: { url: `${env.WEBHOOK_RECEIVER_URL}/hook/ok-deadline-${Date.now().toString(36)}`, events: ["submission.graded"] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const [overdue, due, graded] = [await make(), await make(), await make()];
    await expire(overdue);
    await call(`/v1/submissions/${graded}/grade`, { method: "POST" });
    await expire(graded);

    const noted = noting(env.EVENTS_QUEUE);
    await runCron({ ...env, EVENTS_QUEUE: noted.queue });
    const handed = deadlineMessages(noted.sent).flatMap((m) => m.submission_ids);
    expect(handed).toContain(overdue);
    expect(handed).not.toContain(due);
    expect(handed).not.toContain(graded);

    // The real consumer of the local queue grades it.
    await until(
      async () => (await row<{ status: string }>("SELECT status FROM submissions WHERE id = ?", overdue))?.status === "graded",
      "the deadline grade",
    );
    const got = await call(`/v1/submissions/${overdue}`);
    expect(got.json).toMatchObject({ status: "graded", graded_by: "deadline", score: 50, points_earned: 1, points_possible: 2 });
    expect(await gradedEventsOf(overdue)).toBe(1);
    const results = await call(`/v1/submissions/${overdue}/results`);
    expect(results.json.graded_by).toBe("deadline");
    expect((await call(`/v1/submissions/${due}`)).json.status).toBe("open");
    // The event recorded by the consumer is dispatched as a request's is, not left to the sweep.
    const event = await call(`/v1/events?type=submission.graded&limit=100`);
    const mine = event.json.events.find((e) => e.data.object.id === overdue);
    expect(mine?.data.object.graded_by).toBe("deadline");
    await until(
      async () => (await row<{ d: string | null }>("SELECT dispatched_at AS d FROM events WHERE id = ?", mine!.id))?.d != null,
      "the event's dispatch",
      30_000,
    );
  });

  it("exactly once while grade calls race the consumer and the cron, over many trials", async () => {
    const TRIALS = 20;
    const { quizId, questionIds, userId } = await quizAndUser();
    const byWinner = { request: 0, deadline: 0 };
    for (let trial = 1; trial <= TRIALS; trial++) {
      const res = await call(`/v1/quizzes/${quizId}/submissions`, {
        body: { user_id: userId, answers: [{ question_id: questionIds[trial % 2], response: trial % 3 === 0 }] },
      });
      expect(res.status, res.text).toBe(201);
      const id = res.json.id as string;
      await expire(id);
      const grades = [
        call(`/v1/submissions/${id}/grade`, { method: "POST" }),
        call(`/v1/submissions/${id}/grade`, { method: "POST" }),
      ];
      await Promise.all([
        consume(env, [{ kind: "deadline", submission_ids: [id] }]),
        consume(env, [{ kind: "deadline", submission_ids: [id] }]),
        runCron(env),
        ...grades,
      ]);
      const answered = await Promise.all(grades);
      const stored = await call(`/v1/submissions/${id}`);
      expect(stored.json.status).toBe("graded");
      for (const graded of answered) {
        expect(graded.status, graded.text).toBe(200);
        expect(graded.json.graded_at).toBe(stored.json.graded_at);
        expect(graded.json.score).toBe(stored.json.score);
      }
      byWinner[stored.json.graded_by as "request" | "deadline"] += 1;
      expect(await gradedEventsOf(id)).toBe(1);
      const kept = await row<{ attempts: number }>(
        "SELECT attempts FROM grades WHERE quiz_id = ? AND user_id = ?",
        quizId,
        userId,
      );
      expect(kept?.attempts).toBe(trial);
    }
    const stats = await row<{ total_attempts: number }>("SELECT total_attempts FROM quiz_stats WHERE quiz_id = ?", quizId);
    expect(stats?.total_attempts).toBe(TRIALS);
    expect(byWinner.request + byWinner.deadline).toBe(TRIALS);
  });

  it("works through a backlog of 5 000 overdue submissions in bounded invocations, picking up where it left off", async () => {
    const BACKLOG = 5000;
    const { quizId, questionIds, userId } = await quizAndUser();
    // The end of a large exam: 5 000 open submissions past their deadlines (one user's attempts
    // 1..5000, so the kept grade counts them all), inserted straight into D1.
    const answers = JSON.stringify([{ question_id: questionIds[0], response: true }]);
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO submissions (id, quiz_id, user_id, attempt, status, answers, deadline_at, created_at, updated_at)
       SELECT printf('sub_backlog%015d', i), ?, ?, i, 'open', ?,
         strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d seconds', 120 + i)),
         strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour')
       FROM n`,
    )
      .bind(BACKLOG, quizId, userId, answers)
      .run();
    const ours = (id: string) => id.startsWith("sub_backlog");

    // One cron invocation: one D1 read of the overdue ids (the events', jobs', LTI's and assets' sweeps
    // add their own few calls: 10 in all, the LTI sweep's nonce delete, its forgotten-passback read,
    // the LTI tool's batch dropping expired login states and tickets, and the read of unreferenced
    // assets included).
    const counted = countingEnv(env);
    const noted = noting(env.EVENTS_QUEUE);
    await runCron({ ...counted.env, EVENTS_QUEUE: noted.queue });
    const overdueReads = counted.log.filter((c) => c.detail.includes("FROM submissions"));
    expect(overdueReads).toHaveLength(1);
    expect(counted.counts.d1).toBeLessThanOrEqual(10);
    const messages = deadlineMessages(noted.sent).filter((m) => m.submission_ids.every(ours));
    expect(messages.every((m) => m.submission_ids.length <= DEADLINE_CHUNK)).toBe(true);
    expect(new Set(messages.flatMap((m) => m.submission_ids)).size).toBe(BACKLOG);
    // Oldest deadline first.
    expect(messages[0]?.submission_ids[0]).toBe(`sub_backlog${String(BACKLOG).padStart(15, "0")}`);

    // Consumer invocations of the largest batch the queue delivers, counted: the newest half of
    // the backlog (the real consumer works from the oldest), so these grade for real.
    let most = 0;
    const half = messages.slice(messages.length / 2);
    for (let i = 0; i < half.length; i += MAX_BATCH) {
      counted.reset();
      await consume(counted.env, half.slice(i, i + MAX_BATCH));
      most = Math.max(most, counted.counts.d1);
    }
    expect(most).toBeGreaterThan(0);
    // Plus one read of the endpoints' subscriptions, to dispatch the events the grades recorded.
    expect(most).toBeLessThanOrEqual(MAX_BATCH * DEADLINE_CHUNK * D1_PER_GRADE + 1);
    expect(most).toBeLessThan(D1_PER_INVOCATION_LIMIT);

    // A later run hands over only what is still open: it picks up where the last left off.
    const gradedBefore = new Set(
      (
        await env.DB.prepare("SELECT id FROM submissions WHERE quiz_id = ? AND status = 'graded'")
          .bind(quizId)
          .all<{ id: string }>()
      ).results.map((r) => r.id),
    );
    expect(gradedBefore.size).toBeGreaterThanOrEqual(BACKLOG / 2);
    const again = noting(env.EVENTS_QUEUE);
    await runCron({ ...env, EVENTS_QUEUE: again.queue });
    const handedAgain = deadlineMessages(again.sent)
      .flatMap((m) => m.submission_ids)
      .filter(ours);
    expect(handedAgain.filter((id) => gradedBefore.has(id))).toEqual([]);

    // Everything ends graded exactly once, by the deadline, each with its event.
    const graded = async () =>
      (await row<{ n: number }>("SELECT count(*) AS n FROM submissions WHERE quiz_id = ? AND status = 'graded'", quizId))!.n;
    await until(async () => (await graded()) === BACKLOG, "the backlog to be graded", 120_000);
    const summary = await row<{ deadline: number; events: number }>(
      `SELECT (SELECT count(*) FROM submissions WHERE quiz_id = ?1 AND graded_by = 'deadline') AS deadline,
              (SELECT count(*) FROM events WHERE type = 'submission.graded' AND json_extract(data, '$.object.quiz_id') = ?1) AS events`,
      quizId,
    );
    expect(summary).toEqual({ deadline: BACKLOG, events: BACKLOG });
    const kept = await call(`/v1/quizzes/${quizId}/grades`);
    expect(kept.json.grades).toEqual([
      { quiz_id: quizId, user_id: userId, attempts: BACKLOG, kept_score: 50, policy: "highest" },
    ]);
    const stats = await row<{ total_attempts: number }>("SELECT total_attempts FROM quiz_stats WHERE quiz_id = ?", quizId);
    expect(stats?.total_attempts).toBe(BACKLOG);
  }, 300_000);
});

describe("settings that close open submissions sooner (§6b)", () => {
  const SECOND = 1000;

  async function createQuiz(settings: Record<string, unknown>) {
    const res = await call("/v1/quizzes", { body: { title: `Closing ${crypto.randomUUID()}`, questions: TF, settings } });
    expect(res.status, res.text).toBe(201);
    return res.json.id as string;
  }
  async function createUser() {
    const res = await call("/v1/users", { body: { name: "Ada", email: `${crypto.randomUUID()}@example.com` } });
    expect(res.status, res.text).toBe(201);
    return res.json.id as string;
  }
  async function submit(quizId: string, userId: string) {
    const res = await call(`/v1/quizzes/${quizId}/submissions`, { body: { user_id: userId } });
    expect(res.status, res.text).toBe(201);
    return res.json as { id: string; created_at: string; deadline_at: string | null };
  }
  async function patchSettings(quizId: string, settings: Record<string, unknown>) {
    const res = await call(`/v1/quizzes/${quizId}`, { method: "PATCH", body: { settings } });
    expect(res.status, res.text).toBe(200);
  }
  const deadlineOf = async (id: string) => (await call(`/v1/submissions/${id}`)).json.deadline_at as string | null;
  const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

  it("a shorter time limit or an earlier window's end moves open submissions' deadline_at; nothing ever extends one", async () => {
    const quizId = await createQuiz({ time_limit_seconds: 3600 });
    const [plain, extra, done] = [await createUser(), await createUser(), await createUser()];
    const put = await call(`/v1/quizzes/${quizId}/accommodations/${extra}`, {
      method: "PUT",
      body: { extra_time_seconds: 120 },
    });
    expect(put.status, put.text).toBe(200);
    const [a, b, c] = [await submit(quizId, plain), await submit(quizId, extra), await submit(quizId, done)];
    expect(c.deadline_at).toBe(plus(c.created_at, 3600 * SECOND));
    await call(`/v1/submissions/${c.id}/grade`, { method: "POST" });

    await patchSettings(quizId, { time_limit_seconds: 600 });
    expect(await deadlineOf(a.id)).toBe(plus(a.created_at, 600 * SECOND));
    // The user's extra time still counts.
    expect(await deadlineOf(b.id)).toBe(plus(b.created_at, 720 * SECOND));
    // A graded submission's deadline is history: it stays.
    expect(await deadlineOf(c.id)).toBe(c.deadline_at);

    // Longer again, or no limit: never later than stored.
    await patchSettings(quizId, { time_limit_seconds: 7200 });
    await patchSettings(quizId, { time_limit_seconds: null });
    expect(await deadlineOf(a.id)).toBe(plus(a.created_at, 600 * SECOND));
    expect(await deadlineOf(b.id)).toBe(plus(b.created_at, 720 * SECOND));

    const end = plus(a.created_at, 300 * SECOND);
    await patchSettings(quizId, { available_until: end });
    expect(await deadlineOf(a.id)).toBe(end);
    expect(await deadlineOf(b.id)).toBe(end);
    await patchSettings(quizId, { available_until: plus(a.created_at, 86_400 * SECOND) });
    await patchSettings(quizId, { available_until: null });
    expect(await deadlineOf(a.id)).toBe(end);

    // An open submission without any deadline gets one.
    const open = await createQuiz({});
    const d = await submit(open, plain);
    expect(d.deadline_at).toBeNull();
    await patchSettings(open, { time_limit_seconds: 60 });
    expect(await deadlineOf(d.id)).toBe(plus(d.created_at, 60 * SECOND));
  });

  it("an end moved into the past closes open submissions at once: answers → 409 deadline_passed, and the cron grades them", async () => {
    const quizId = await createQuiz({});
    const userId = await createUser();
    const sub = await submit(quizId, userId);
    const end = new Date(Date.now() - SECOND).toISOString();
    await patchSettings(quizId, { available_until: end });
    expect(await deadlineOf(sub.id)).toBe(end);
    const late = await call(`/v1/submissions/${sub.id}/answers`, {
      method: "PUT",
      body: { answers: [{ question_id: (await call(`/v1/quizzes/${quizId}/questions`)).json.questions[0]!.id, response: true }] },
    });
    expect(late.status, late.text).toBe(409);
    expect(late.problem.code).toBe("deadline_passed");

    const noted = noting(env.EVENTS_QUEUE);
    await runCron({ ...env, EVENTS_QUEUE: noted.queue });
    const handed = deadlineMessages(noted.sent).flatMap((m) => m.submission_ids);
    expect(handed).toContain(sub.id);
    await consume(env, [{ kind: "deadline", submission_ids: [sub.id] }]);
    expect((await call(`/v1/submissions/${sub.id}`)).json).toMatchObject({ status: "graded", graded_by: "deadline" });
  });

  it("a PATCH racing submission creation, over many trials: no open submission keeps a deadline later than the settings allow", async () => {
    const TRIALS = 40;
    /** Lets the other request run first for `ticks` turns of the microtask queue. */
    const yieldTicks = async (ticks: number) => {
      for (let i = 0; i < ticks; i++) await Promise.resolve();
    };
    for (let trial = 0; trial < TRIALS; trial++) {
      const byEnd = trial % 2 === 1;
      const quizId = await createQuiz({ time_limit_seconds: 3600 });
      const userId = await createUser();
      const end = new Date(Date.now() + 120 * SECOND).toISOString();
      const settings = byEnd ? { available_until: end } : { time_limit_seconds: 60 };
      // Mostly the PATCH starts first and the creation a few ticks later, which puts the PATCH's
      // write between the creation's read and its INSERT about a third of the time (measured);
      // every fifth trial the other way round.
      const ticks = 5 * ((trial % 8) + 1);
      const patchFirst = trial % 5 !== 4;
      const [created, patched] = await Promise.all([
        yieldTicks(patchFirst ? ticks : 0).then(() => call(`/v1/quizzes/${quizId}/submissions`, { body: { user_id: userId } })),
        yieldTicks(patchFirst ? 0 : ticks).then(() => call(`/v1/quizzes/${quizId}`, { method: "PATCH", body: { settings } })),
      ]);
      expect(patched.status, patched.text).toBe(200);
      expect(created.status, created.text).toBe(201);
      const stored = await row<{ created_at: string; deadline_at: string | null }>(
        "SELECT created_at, deadline_at FROM submissions WHERE id = ?",
        created.json.id,
      );
      const allowed = byEnd ? end : plus(stored!.created_at, 60 * SECOND);
      expect(stored!.deadline_at, `trial ${trial}`).not.toBeNull();
      expect(stored!.deadline_at! <= allowed, `trial ${trial}: ${stored!.deadline_at} > ${allowed}`).toBe(true);
      // The creation answered the deadline it wrote; a PATCH after it may only have moved it earlier.
      expect(created.json.deadline_at! >= stored!.deadline_at!).toBe(true);
    }
  }, 60_000);

  it("a submission's deadline is the domain's rule (deadlineFor) applied to the settings and extra time it was created under", async () => {
    const base = Date.now() + 3_600_000;
    for (const [limit, untilIn, extraTime] of [
      [60, null, 0],
      [60, null, 45],
      [null, 600, 0],
      [null, 600, 300],
      [600, 300, 0],
      [600, 700, 120],
      [600, 900, 120],
      [null, null, 100],
    ] as const) {
      const until = untilIn === null ? null : new Date(base + untilIn * SECOND).toISOString();
      const quizId = await createQuiz({ time_limit_seconds: limit, available_until: until });
      const userId = await createUser();
      await call(`/v1/quizzes/${quizId}/accommodations/${userId}`, { method: "PUT", body: { extra_time_seconds: extraTime } });
      const sub = await submit(quizId, userId);
      const expected = deadlineFor({ time_limit_seconds: limit, available_until: until }, Date.parse(sub.created_at), extraTime);
      expect(sub.deadline_at, JSON.stringify({ limit, untilIn, extraTime })).toBe(expected);
    }
  }, 30_000);
});
