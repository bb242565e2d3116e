// Issue 4: GET /v1/analytics/quiz/{id} for a quiz with 100 graded submissions and one with
// 100 000: latency, throughput, CPU and rows read should not depend on the count.
import type { LocalWorker } from "../scripts/local-worker";
import {
  ANALYTICS_ROUNDS,
  ANALYTICS_SECONDS,
  CONNECTIONS,
  COUNTED_REQUESTS,
  machine,
  progress,
  TARGET_ANALYTICS_RATIO,
  WARMUP_SECONDS,
} from "./config";
import type { LoadRunner } from "./load";
import { countCalls, measure } from "./measure";
import { type CallCounts, int, type MeasuredRun, median, ms, summarize, table } from "./report";
import { seedAnalytics } from "./seed-analytics";

export async function analyticsSuite(worker: LocalWorker, runner: LoadRunner, adminKey: string, loadBefore: number[]) {
  progress("seeding analytics: 100 and 100 000 graded submissions");
  const data = await seedAnalytics(worker, adminKey);
  const headers = { authorization: `Bearer ${adminKey}` };
  const list = [
    { key: "small", method: "GET" as const, headers, items: [{ path: `/v1/analytics/quiz/${data.small.quizId}` }] },
    { key: "large", method: "GET" as const, headers, items: [{ path: `/v1/analytics/quiz/${data.large.quizId}` }] },
  ];
  const starts = new Map<string, number>();
  const calls = new Map<string, CallCounts>();
  for (const e of list) calls.set(e.key, await countCalls(worker.url, { ...e, label: e.key }, starts));
  progress(`load: 2 quizzes × (${WARMUP_SECONDS} s warm-up + ${ANALYTICS_ROUNDS} × ${ANALYTICS_SECONDS} s)`);
  const results = await measure(runner, worker.url, list, starts, ANALYTICS_ROUNDS, ANALYTICS_SECONDS);
  const smallRuns = results.get("small") ?? [];
  const largeRuns = results.get("large") ?? [];
  const small = summarize(smallRuns);
  const large = summarize(largeRuns);
  // Paired round by round: both quizzes of a round ran back to back, under the same conditions.
  const ratio = median(largeRuns.map((r, i) => r.p50 / (smallRuns[i]?.p50 ?? Number.NaN)));
  const perRequest = (key: string, name: string) => {
    const c = calls.get(key);
    return c ? ((c.inRequest[name] ?? 0) / c.requests).toFixed(0) : "—";
  };
  const row = (label: string, n: number, runs: MeasuredRun[]) => {
    const s = summarize(runs);
    return [
      label,
      int(n),
      int(s.rps),
      ms(s.p50),
      runs.map((r) => ms(r.p50)).join(" / "),
      ms(s.p99),
      ms(s.cpu),
      s.non2xx === 0 ? "0" : String(s.non2xx),
    ];
  };
  return [
    `## Analytics read at 100 vs 100 000 submissions (${ANALYTICS_ROUNDS} interleaved rounds × ${ANALYTICS_SECONDS} s, ${CONNECTIONS} connections, medians)`,
    "",
    table(
      [
        "GET /v1/analytics/quiz/{id}",
        "graded submissions",
        "req/s (median)",
        "p50 ms (median)",
        "p50 ms per round",
        "p99 ms",
        "workerd CPU ms/req",
        "non-2xx",
      ],
      [
        row("small quiz (10 questions)", data.small.submissions, smallRuns),
        row("large quiz (10 questions)", data.large.submissions, largeRuns),
      ],
    ),
    "",
    `p50 large / small (median of the rounds' ratios): **${ratio.toFixed(2)}** (target ≤ ${TARGET_ANALYTICS_RATIO}: ${ratio <= TARGET_ANALYTICS_RATIO ? "met ✅" : "missed ❌"}); ratio of the medians ${(large.p50 / small.p50).toFixed(2)}; req/s small / large ${(small.rps / large.rps).toFixed(2)}; workerd CPU per request large / small ${(large.cpu / small.cpu).toFixed(2)}.`,
    "",
    `Work per request, counted (one at a time, ${COUNTED_REQUESTS} each): small quiz ${perRequest("small", "d1")} D1 round trip, ${perRequest("small", "rowsRead")} rows read (D1's meta.rows_read), ${perRequest("small", "kvReads")} KV read; large quiz ${perRequest("large", "d1")} D1 round trip, ${perRequest("large", "rowsRead")} rows read, ${perRequest("large", "kvReads")} KV read.`,
    "",
    table(
      ["Seeding step", "seconds"],
      Object.entries(data.timings).map(([step, s]) => [step, s.toFixed(1)]),
    ),
    "",
    "Both quizzes' submissions are rows of the one submissions table; the read path answers from quiz_stats and question_stats, which the grading batch keeps current.",
    "",
    machine(loadBefore),
  ].join("\n");
}
