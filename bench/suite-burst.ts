// An exam's last minute: 5 000 open submissions of one 20-question quiz reach their deadline at
// the same instant while 200 learners press grade. The cron hands the overdue submissions to the
// events queue (10 a message), the consumer grades them (a batch of at most 10 messages: 100
// submissions an invocation), every one exactly once whoever gets there first. Served by a
// Miniflare of its own whose main worker is the counting build (bench/counting-entry.ts), so that
// D1's rows written by the requests, the cron and the queue's consumer are all counted.
import { join } from "node:path";
import { type LocalWorker, startLocalWorker } from "../scripts/local-worker";
import { BENCH_VARS, machine, progress, sleep } from "./config";
import { answersFor, quizInput, seededRandom } from "./fixtures";
import { ok, pool, request } from "./http";
import { int, ms, table } from "./report";
import { benchDb, createAdminKey, idFactory, insertUsers, loadQuizzes, submissionInserts } from "./seed-bench";
import { SQL_WORKER_HOST, SqlClient } from "./sql-client";
import { sqliteWriteRate } from "./sqlite-rate";
import type { Tally } from "./tally";

export const BURST = { submissions: 5000, learners: 200, learnerConnections: 20, questions: 20 };
/** The deadline is this far after seeding ends: the learners' requests straddle it. */
const DEADLINE_AFTER_MS = 3000;
/** The cron's tick comes this long after the deadline (in production: up to 60 s, the cron's period). */
const CRON_AFTER_DEADLINE_MS = 1000;
const GIVE_UP_MS = 10 * 60_000;

interface Counts {
  own: Tally;
}

const counts = async (worker: LocalWorker) => ok<Counts>(worker.url, { method: "GET", path: "/__bench/counts" });

/** One quiz of 20 questions, 5 000 users each with one open submission (SQL, as a pool is seeded). */
async function seed(worker: LocalWorker) {
  const db = await benchDb(worker);
  const sql = new SqlClient(worker.url);
  const adminKey = await createAdminKey(db);
  const auth = { authorization: `Bearer ${adminKey}`, "content-type": "application/json" };
  const quiz = await ok<{ id: string }>(worker.url, {
    method: "POST",
    path: "/v1/quizzes",
    headers: auth,
    body: JSON.stringify(quizInput(7, BURST.questions, "Final exam")),
  });
  const users = await insertUsers(db, sql, BURST.submissions, "examinee");
  const questions = (await loadQuizzes(db, [quiz.id])).get(quiz.id);
  if (!questions) throw new Error("the exam's questions were not found");
  const random = seededRandom(7);
  const newId = idFactory("submission");
  const created = Date.now() - 3600_000;
  const rows = users.map((userId, i) => ({
    id: newId(created + i),
    quizId: quiz.id,
    userId,
    attempt: 1,
    status: "open" as const,
    answers: answersFor(questions.questions, 0.3 + 0.6 * random(), random),
    createdAt: new Date(created + i).toISOString(),
    updatedAt: new Date(created + i).toISOString(),
  }));
  await sql.run(submissionInserts(db, rows));
  return { adminKey, quizId: quiz.id, ids: rows.map((r) => r.id) };
}

/** What the database says once every submission is graded: each counted once, everywhere. */
async function settled(worker: LocalWorker, quizId: string) {
  const d1 = await worker.mf.getD1Database("DB");
  return d1
    .prepare(
      `SELECT
         (SELECT count(*) FROM submissions WHERE quiz_id = ?1 AND status = 'graded') AS graded,
         (SELECT count(*) FROM submissions WHERE quiz_id = ?1 AND graded_by = 'deadline') AS by_deadline,
         (SELECT count(*) FROM submissions WHERE quiz_id = ?1 AND graded_by = 'request') AS by_request,
         (SELECT total_attempts FROM quiz_stats WHERE quiz_id = ?1) AS quiz_total,
         (SELECT n FROM item_sums WHERE quiz_id = ?1 AND attempts = 'all') AS item_n,
         (SELECT sum(attempts) FROM grades WHERE quiz_id = ?1) AS grade_attempts,
         (SELECT count(*) FROM events WHERE type = 'submission.graded' AND json_extract(data, '$.object.quiz_id') = ?1) AS events,
         (SELECT max(graded_at) FROM submissions WHERE quiz_id = ?1) AS last_graded_at`,
    )
    .bind(quizId)
    .first<Record<string, number | string>>();
}

export async function burstSuite(dir: string, bundles: { counting: string; sql: string }, loadBefore: number[]) {
  progress(`exam end: ${int(BURST.submissions)} open submissions, ${BURST.learners} learners pressing grade`);
  const worker = await startLocalWorker({
    scriptPath: bundles.counting,
    persistRoot: join(dir, "burst-state"),
    vars: BENCH_VARS,
    quiet: true,
    extraWorkers: [{ name: "bench-sql", host: SQL_WORKER_HOST, scriptPath: bundles.sql }],
  });
  try {
    const seeded = await seed(worker);
    const deadline = Date.now() + DEADLINE_AFTER_MS;
    const sql = new SqlClient(worker.url);
    await sql.run([
      {
        sql: "UPDATE submissions SET deadline_at = ?1 WHERE quiz_id = ?2",
        params: [new Date(deadline).toISOString(), seeded.quizId],
      },
    ]);
    await request(worker.url, { method: "POST", path: "/__bench/reset" });
    const before = await counts(worker);

    // The learners: the last 200 to press grade, a second before the deadline and after it.
    await sleep(Math.max(0, deadline - 1000 - Date.now()));
    const learnerIds = seeded.ids.slice(-BURST.learners);
    const auth = { authorization: `Bearer ${seeded.adminKey}` };
    const latencies: number[] = [];
    const learners = pool(learnerIds, BURST.learnerConnections, async (id) => {
      const started = performance.now();
      const res = await request(worker.url, { method: "POST", path: `/v1/submissions/${id}/grade`, headers: auth });
      latencies.push(performance.now() - started);
      return res.status;
    });
    // The cron's tick after the deadline, then the queue works through what it handed over.
    await sleep(Math.max(0, deadline + CRON_AFTER_DEADLINE_MS - Date.now()));
    const cronAt = Date.now();
    const cron = await request(worker.url, { method: "POST", path: "/__bench/scheduled" });
    if (cron.status !== 204) throw new Error(`the cron's run → ${cron.status}: ${cron.text.slice(0, 300)}`);
    const cronMs = Date.now() - cronAt;
    const statuses = await learners;
    let state = await settled(worker, seeded.quizId);
    while (Number(state?.graded) < BURST.submissions && Date.now() - cronAt < GIVE_UP_MS) {
      await sleep(250);
      state = await settled(worker, seeded.quizId);
    }
    const after = await counts(worker);
    if (!state) throw new Error("the exam's quiz vanished");
    const lastAt = Date.parse(String(state.last_graded_at));
    const rows = after.own.rowsWritten - before.own.rowsWritten;
    const d1Calls = after.own.d1 - before.own.d1;
    const graded = Number(state.graded);
    const byDeadline = Number(state.by_deadline);
    const queueSeconds = (lastAt - cronAt) / 1000;
    const rate = await sqliteWriteRate(worker);
    latencies.sort((a, b) => a - b);
    const exact = [state.quiz_total, state.item_n, state.grade_attempts, state.events].every((v) => Number(v) === graded);

    const rowsPerGrade = rows / graded;
    return [
      "## An exam's last minute (one database)",
      "",
      `${int(BURST.submissions)} open submissions of one ${BURST.questions}-question quiz, all due at the same instant; ${BURST.learners} learners press grade from a second before it (${BURST.learnerConnections} at a time); the cron's tick ${CRON_AFTER_DEADLINE_MS / 1000} s after the deadline hands the overdue ones to the events queue (10 a message) and the consumer grades them (at most 10 messages, 100 submissions, an invocation). Everything runs under Miniflare: one workerd thread runs the requests, the consumer and D1's SQLite, one batch of the queue at a time.`,
      "",
      table(
        ["", "measured"],
        [
          [
            "graded",
            `${int(graded)} of ${int(BURST.submissions)}: ${int(byDeadline)} by the deadline, ${int(Number(state.by_request))} by a learner`,
          ],
          [
            "each exactly once",
            `${exact ? "yes" : "NO"}: quiz total ${int(Number(state.quiz_total))}, item sums n ${int(Number(state.item_n))}, grades' attempts ${int(Number(state.grade_attempts))}, submission.graded events ${int(Number(state.events))}`,
          ],
          [
            "learners' grade requests",
            `${statuses.filter((s) => s === 200).length} of ${BURST.learners} answered 200; p50 ${ms(latencies[Math.floor(latencies.length / 2)] ?? Number.NaN)} ms, max ${ms(latencies.at(-1) ?? Number.NaN)} ms`,
          ],
          ["the cron's run (finding 5 000 overdue, 500 messages)", `${int(cronMs)} ms`],
          [
            "the last submission graded",
            `${((lastAt - deadline) / 1000).toFixed(1)} s after the deadline (${queueSeconds.toFixed(1)} s after the cron's tick; in production add up to 60 s for the tick)`,
          ],
          ["queue throughput", `${int(byDeadline / queueSeconds)} grades/s (${int(byDeadline)} in ${queueSeconds.toFixed(1)} s)`],
          [
            "D1 rows written",
            `${int(rows)}: ${rowsPerGrade.toFixed(1)} per grade (the event's and the queue's work included); ${int(d1Calls)} D1 calls`,
          ],
          ["local SQLite's write rate (one row per statement, 1 000 a batch)", `${int(rate.rowsPerSecond)} rows/s`],
          [
            "ceiling implied by rows written",
            `${int(rate.rowsPerSecond / rowsPerGrade)} grades/s (local SQLite's rate ÷ rows per grade)`,
          ],
        ],
      ),
      "",
      machine(loadBefore),
    ].join("\n");
  } finally {
    await worker.dispose();
  }
}
