// Saving one answer (PUT /v1/submissions/{id}/answers/{question_id}): what a player's autosave
// costs. Throughput against the bare baseline measured in the same run (and the whole-answers PUT
// beside it), D1 round trips and rows per save through the counting worker, the price of a
// million saves at Cloudflare's list prices, and how many learners saving every 5 s one database
// carries.
import { drizzle } from "drizzle-orm/d1";
import type { LocalWorker } from "../scripts/local-worker";
import type { Database } from "../src/env";
import { saveStatements } from "../src/grading/answer-save";
import { CONNECTIONS, DURATION_SECONDS, machine, progress, ROUNDS } from "./config";
import { PRICES } from "./cost";
import { BASELINE_HOST, type Endpoint } from "./endpoints";
import { answersFor, quizInput, respond, seededRandom } from "./fixtures";
import { ok, pool } from "./http";
import type { LoadRunner } from "./load";
import { countCalls, measure } from "./measure";
import { type CallCounts, int, median, ms, pct, summarize, table } from "./report";
import { benchDb, createAdminKey, insertUsers, loadQuizzes } from "./seed-bench";
import { SqlClient, type Statement } from "./sql-client";
import { sqliteWriteRate } from "./sqlite-rate";

export const SAVES = { quizzes: 20, questions: 20, submissions: 200, learnerPeriodSeconds: 5 };

/** 20 quizzes (the baseline's page is full), 200 open submissions of the first, by 200 users. */
async function seed(worker: LocalWorker) {
  const db = await benchDb(worker);
  const adminKey = await createAdminKey(db);
  const auth = { authorization: `Bearer ${adminKey}`, "content-type": "application/json" };
  const quizIds = await pool(
    Array.from({ length: SAVES.quizzes }, (_, i) => i),
    4,
    async (i) =>
      (
        await ok<{ id: string }>(worker.url, {
          method: "POST",
          path: "/v1/quizzes",
          headers: auth,
          body: JSON.stringify(quizInput(i, SAVES.questions, "Autosave quiz")),
        })
      ).id,
  );
  const quizId = quizIds[0] as string;
  const users = await insertUsers(db, new SqlClient(worker.url), SAVES.submissions, "saver");
  const submissionIds = await pool(
    users,
    8,
    async (user_id) =>
      (
        await ok<{ id: string }>(worker.url, {
          method: "POST",
          path: `/v1/quizzes/${quizId}/submissions`,
          headers: auth,
          body: JSON.stringify({ user_id }),
        })
      ).id,
  );
  const questions = (await loadQuizzes(db, [quizId])).get(quizId)?.questions ?? [];
  return { adminKey, submissionIds, questions };
}

/** A D1 binding that runs nothing: a statement is the text prepared and the values bound (as bench/grade-plans.ts). */
const recorder = {
  prepare: (sql: string) => ({ bind: (...params: unknown[]): Statement => ({ sql, params }) }),
};
const planning = drizzle(recorder as unknown as D1Database) as Database;
const SQL_SAVES = 1000;
const SQL_BATCHES = 5;

/**
 * The save's own SQL with nothing around it: batches of SQL_SAVES of the conditional UPDATE the
 * app runs (saveStatements, src/grading/answer-save.ts), each landing, through the bench's SQL
 * worker. What the database alone could take, on this machine.
 */
async function saveSqlRate(worker: LocalWorker, items: { id: string; questionId: string; response: unknown }[]) {
  const sql = new SqlClient(worker.url);
  const seconds: number[] = [];
  let seq = Date.now() * 10;
  for (let b = 0; b < SQL_BATCHES; b++) {
    const now = new Date().toISOString();
    const batch = Array.from({ length: SQL_SAVES }, (_, k) => {
      const item = items[(b * SQL_SAVES + k) % items.length] as (typeof items)[number];
      return saveStatements(
        planning,
        item.id,
        item.questionId,
        { response: item.response, seq: ++seq },
        now,
      )[0] as unknown as Statement;
    });
    const started = performance.now();
    const changed = await sql.run(batch);
    seconds.push((performance.now() - started) / 1000);
    if (changed !== SQL_SAVES) throw new Error(`the save's SQL landed ${changed} of ${SQL_SAVES}`);
  }
  seconds.sort((a, b) => a - b);
  return SQL_SAVES / (seconds[Math.floor(seconds.length / 2)] as number);
}

export async function savesSuite(worker: LocalWorker, runner: LoadRunner, loadBefore: number[]) {
  progress(`autosave: ${SAVES.submissions} open submissions of a ${SAVES.questions}-question quiz`);
  const { adminKey, submissionIds, questions } = await seed(worker);
  const headers = { authorization: `Bearer ${adminKey}`, "content-type": "application/json" };
  const random = seededRandom(11);
  // Every (submission, question) in turn, the seq "1{n}" rising with the request's index n, so
  // every save lands (a stale one would write nothing and flatter the figures).
  const saveItems = submissionIds.flatMap((id) =>
    questions.map((q) => ({
      path: `/v1/submissions/${id}/answers/${q.id}`,
      body: `{"response":${JSON.stringify(respond(q, random() < 0.6, random))},"seq":1{n}}`,
    })),
  );
  const list: Endpoint[] = [
    {
      key: "baseline",
      label: "baseline: bare worker, GET /v1/quizzes?limit=20 (no auth)",
      method: "GET",
      headers: { host: BASELINE_HOST },
      items: [{ path: "/v1/quizzes?limit=20" }],
      baseline: true,
    },
    { key: "save-answer", label: "PUT /v1/submissions/{id}/answers/{question_id}", method: "PUT", headers, items: saveItems },
    {
      key: "replace-answers",
      label: `PUT /v1/submissions/{id}/answers (all ${SAVES.questions})`,
      method: "PUT",
      headers,
      items: submissionIds.map((id) => ({
        path: `/v1/submissions/${id}/answers`,
        body: JSON.stringify({ answers: answersFor(questions, 0.6, random) }),
      })),
    },
  ];
  const starts = new Map<string, number>();
  progress("counting binding calls per save");
  const calls: CallCounts[] = [];
  for (const e of list.filter((x) => !x.baseline)) calls.push(await countCalls(worker.url, e, starts));
  progress(`load: ${list.length} endpoints × ${ROUNDS} × ${DURATION_SECONDS} s, ${CONNECTIONS} connections`);
  const results = await measure(runner, worker.url, list, starts);
  const rate = await sqliteWriteRate(worker);
  const sqlRate = await saveSqlRate(
    worker,
    submissionIds.flatMap((id) => questions.map((q) => ({ id, questionId: q.id, response: respond(q, true, random) }))),
  );

  const baseline = results.get("baseline") ?? [];
  const rows = list.map((e) => {
    const own = results.get(e.key) ?? [];
    const s = summarize(own);
    const ratio = e.baseline
      ? 1
      : median(own.map((r, i) => r.requestsPerSecond / (baseline[i]?.requestsPerSecond ?? Number.NaN)));
    const non2xx = own.reduce((n, r) => n + r.non2xx, 0);
    return { e, s, ratio, non2xx, rps: median(own.map((r) => r.requestsPerSecond)) };
  });
  const per = (key: string) => {
    const c = calls.find((x) => x.key === key);
    if (!c) throw new Error(`no counts for ${key}`);
    const n = c.requests;
    const own = c.inRequest.own;
    return {
      d1: own.d1 / n,
      rowsRead: own.rowsRead / n,
      rowsWritten: own.rowsWritten / n,
      kv: (own.kvReads + own.kvWrites + own.kvDeletes + own.kvLists) / n,
      cpu: summarize(results.get(key) ?? []).cpu,
    };
  };
  const save = per("save-answer");
  const whole = per("replace-answers");
  // The endpoint's own price per million; the credential's work (key lookup, rate limiter, usage
  // flush) is the same for every /v1 request and priced in the main suite's cost table.
  const priced = (p: ReturnType<typeof per>) =>
    PRICES.request +
    p.cpu * PRICES.cpuMs +
    p.rowsRead * PRICES.d1RowRead +
    p.rowsWritten * PRICES.d1RowWritten +
    p.kv * PRICES.kvRead;
  const saveRps = rows.find((r) => r.e.key === "save-answer")?.rps ?? Number.NaN;
  const learnersMeasured = saveRps * SAVES.learnerPeriodSeconds;
  const learnersByRows = (rate.rowsPerSecond / save.rowsWritten) * SAVES.learnerPeriodSeconds;
  const learnersBySql = sqlRate * SAVES.learnerPeriodSeconds;

  return [
    "## Saving one answer (autosave)",
    "",
    `${int(SAVES.submissions)} open submissions of one ${SAVES.questions}-question quiz; each save goes to the next (submission, question) with a rising seq, so every save lands. ${ROUNDS} rounds of ${DURATION_SECONDS} s, ${CONNECTIONS} connections; ratios are round by round against the bare baseline of the same run.`,
    "",
    table(
      ["endpoint", "req/s (median)", "vs baseline", "p50 ms", "workerd CPU ms/req", "non-2xx"],
      rows.map(({ e, s, ratio, non2xx, rps }) => [
        e.label,
        int(rps),
        e.baseline ? "—" : pct(ratio),
        ms(s.p50),
        ms(s.cpu),
        int(non2xx),
      ]),
    ),
    "",
    table(
      ["per request", "D1 round trips", "D1 rows read", "D1 rows written", "KV calls", "$ per million (list prices)"],
      [
        [
          "one-answer save",
          save.d1.toFixed(2),
          save.rowsRead.toFixed(1),
          save.rowsWritten.toFixed(2),
          save.kv.toFixed(2),
          `$${priced(save).toFixed(3)}`,
        ],
        [
          `whole-answers PUT (${SAVES.questions} answers)`,
          whole.d1.toFixed(2),
          whole.rowsRead.toFixed(1),
          whole.rowsWritten.toFixed(2),
          whole.kv.toFixed(2),
          `$${priced(whole).toFixed(3)}`,
        ],
      ],
    ),
    "",
    table(
      ["learners saving every 5 s, one database", "how"],
      [
        [
          int(learnersMeasured),
          `the saves/s measured here (${int(saveRps)}) × ${SAVES.learnerPeriodSeconds} s: one workerd thread runs the worker and SQLite`,
        ],
        [
          int(learnersBySql),
          `the save's own UPDATE alone (${int(sqlRate)}/s, batches of ${int(SQL_SAVES)} through D1) × ${SAVES.learnerPeriodSeconds} s: the database's bound, workers scaled out`,
        ],
        [
          int(learnersByRows),
          `local SQLite's write rate (${int(rate.rowsPerSecond)} single-row updates/s) ÷ ${save.rowsWritten.toFixed(2)} rows per save × ${SAVES.learnerPeriodSeconds} s: rows written alone (the save's UPDATE does more per row)`,
        ],
      ],
    ),
    "",
    `Prices: $${PRICES.request}/M requests, $${PRICES.cpuMs}/M CPU-ms, $${PRICES.d1RowRead}/M D1 rows read, $${PRICES.d1RowWritten}/M D1 rows written (bench/cost.ts), the workerd CPU measured here taken as billed CPU.`,
    "",
    machine(loadBefore),
  ].join("\n");
}
