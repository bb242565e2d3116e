// GET /v1/quizzes/{id}/results/export on the analytics quizzes (100 and 100 000 graded
// submissions of 10 questions): each export read to its end as a client streams it, timed, with
// the workerd process's CPU and its resident memory as the rows go by and, through the counting
// worker, its D1 round trips and rows read. Last, the large export again with an index on
// submissions (quiz_id, created_at, id), made for the bench only and dropped after: what each page
// costs when it is a range read instead of a sort of the quiz's submissions.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { LocalWorker } from "../scripts/local-worker";
import { machine, progress } from "./config";
import { cpuSeconds, workerdPids } from "./cpu";
import { COUNTING_HOST } from "./endpoints";
import { request } from "./http";
import { int, ms, table } from "./report";
import type { AnalyticsData } from "./seed-analytics";
import { SqlClient } from "./sql-client";

const MIB = 2 ** 20;
const QUESTIONS = 10;
const BENCH_INDEX = "bench_submissions_quiz_created_idx";

interface ExportCase {
  label: string;
  quizId: string;
  submissions: number;
  shape: "submissions" | "answers";
  format: "csv" | "ndjson";
  /** Through the counting worker too: D1 round trips and rows read (a second full export). */
  counted?: boolean;
}

interface ExportRun {
  records: number;
  bytes: number;
  seconds: number;
  cpuSeconds: number;
  /** workerd's resident memory when the first, the middle and the last rows arrived. */
  rss: [number, number, number];
  d1?: number;
  rowsRead?: number;
}

/** Resident memory of the processes, bytes (VmRSS). */
function rss(pids: number[]): number {
  let kib = 0;
  for (const pid of pids) kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return kib * 1024;
}

/**
 * One export streamed to its end, keeping nothing: records are counted by line ends (the bench's
 * data has none inside a cell); `onLines` hears the count as it grows.
 */
function stream(origin: string, path: string, headers: Record<string, string>, onLines: (lines: number) => void = () => {}) {
  return new Promise<{ status: number; bytes: number; lines: number }>((resolve, reject) => {
    // A connection of its own: a kept-alive socket that the server closed after the previous
    // export would reset this one before it starts.
    const req = http.request(new URL(path, origin), { headers, agent: false }, (res) => {
      let bytes = 0;
      let lines = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        onLines(lines);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes, lines }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

async function runOnce(worker: LocalWorker, key: string, c: ExportCase): Promise<ExportRun> {
  const path = `/v1/quizzes/${c.quizId}/results/export?format=${c.format}&shape=${c.shape}`;
  const headers = { authorization: `Bearer ${key}` };
  const expected = c.submissions * (c.shape === "answers" ? QUESTIONS : 1);
  const pids = workerdPids();
  const marks = [1, expected / 2, expected];
  const rssAt: number[] = [];
  const cpuBefore = cpuSeconds(pids);
  const started = performance.now();
  const res = await stream(worker.url, path, headers, (lines) => {
    while (rssAt.length < marks.length && lines >= (marks[rssAt.length] as number)) rssAt.push(rss(pids));
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(pids) - cpuBefore;
  if (res.status !== 200) throw new Error(`${path} → ${res.status}`);
  const records = res.lines - (c.format === "csv" ? 1 : 0);
  if (records !== expected) throw new Error(`export ${c.label}: ${records} records, expected ${expected}`);
  const [first = 0, middle = first, last = middle] = rssAt;
  const run: ExportRun = { records, bytes: res.bytes, seconds, cpuSeconds: cpu, rss: [first, middle, last] };
  if (c.counted) {
    const admin = { host: COUNTING_HOST };
    await request(worker.url, { method: "POST", path: "/__bench/reset", headers: admin });
    const counted = await stream(worker.url, path, { ...headers, host: COUNTING_HOST });
    if (counted.status !== 200) throw new Error(`${path} through the counting worker → ${counted.status}`);
    const totals = (await request(worker.url, { method: "GET", path: "/__bench/counts", headers: admin })).json as {
      own: { d1: number; rowsRead: number };
    };
    run.d1 = totals.own.d1;
    run.rowsRead = totals.own.rowsRead;
  }
  return run;
}

const row = (label: string, run: ExportRun) => [
  label,
  int(run.records),
  (run.bytes / MIB).toFixed(1),
  run.seconds.toFixed(1),
  int(run.records / run.seconds),
  ms((run.cpuSeconds * 1000 * 1000) / run.records),
  run.rss.map((b) => (b / MIB).toFixed(0)).join(" / "),
  run.d1 === undefined ? "—" : int(run.d1),
  run.rowsRead === undefined ? "—" : int(run.rowsRead),
];

export async function exportSuite(worker: LocalWorker, adminKey: string, data: AnalyticsData, loadBefore: number[]) {
  const small = { quizId: data.small.quizId, submissions: data.small.submissions };
  const large = { quizId: data.large.quizId, submissions: data.large.submissions };
  const cases: ExportCase[] = [
    { label: "small, submissions, CSV", ...small, shape: "submissions", format: "csv", counted: true },
    { label: "large, submissions, CSV", ...large, shape: "submissions", format: "csv", counted: true },
    { label: "large, submissions, NDJSON", ...large, shape: "submissions", format: "ndjson" },
    { label: "large, answers, CSV", ...large, shape: "answers", format: "csv" },
  ];
  const rows: string[][] = [];
  for (const c of cases) {
    progress(`export: ${c.label} (${int(c.submissions)} submissions)`);
    rows.push(row(c.label, await runOnce(worker, adminKey, c)));
  }
  const sql = new SqlClient(worker.url);
  progress(`export: large, submissions, CSV, with ${BENCH_INDEX} (bench only)`);
  await sql.run([{ sql: `CREATE INDEX ${BENCH_INDEX} ON submissions (quiz_id, created_at, id)`, params: [] }]);
  try {
    const indexed: ExportCase = { label: "", ...large, shape: "submissions", format: "csv", counted: true };
    rows.push(
      row("large, submissions, CSV, **with an index on (quiz_id, created_at, id)**", await runOnce(worker, adminKey, indexed)),
    );
  } finally {
    await sql.run([{ sql: `DROP INDEX ${BENCH_INDEX}`, params: [] }]);
  }
  return [
    "## Results export (GET /v1/quizzes/{id}/results/export, streamed to its end, one at a time)",
    "",
    table(
      [
        "export",
        "rows",
        "MiB",
        "seconds",
        "rows/s",
        "workerd CPU ms per 1 000 rows",
        "workerd RSS MiB (first / middle / last row)",
        "D1 round trips",
        "D1 rows read",
      ],
      rows,
    ),
    "",
    `The analytics quizzes: ${int(data.small.submissions)} and ${int(data.large.submissions)} graded submissions of ${QUESTIONS} questions (regraded once when the analytics suite ran). A client reads each export with node:http, counting bytes and line ends and keeping nothing; workerd's CPU is read from /proc before and after, its resident memory (the whole process: the worker's isolates and D1's SQLite with its page cache) when the first, the middle and the last row arrive. CPU includes D1's SQLite, which runs in the same process here. D1 figures come from a second run through the counting worker. The last row's index exists for that run only: no migration creates it.`,
    "",
    machine(loadBefore),
  ].join("\n");
}
