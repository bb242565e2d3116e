// GET /v1/analytics/quiz/{id} and its item analysis (…/items) for a quiz with 100 graded
// submissions and one with 100 000: latency, throughput, CPU and rows read should not depend on
// the count. Then a regrade of the large quiz, dry run and applied: its throughput.
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
import { ok } from "./http";
import type { LoadRunner } from "./load";
import { countCalls, measure } from "./measure";
import { type CallCounts, int, type MeasuredRun, median, ms, summarize, table } from "./report";
import type { AnalyticsData } from "./seed-analytics";
import type { Tally } from "./tally";

interface RegradeRun {
  label: string;
  considered: number;
  changed: number;
  seconds: number;
}

/** A dry run then an applied regrade of the quiz after a change to its first question's points, each timed to its end. */
async function regradeThroughput(url: string, headers: Record<string, string>, quizId: string): Promise<RegradeRun[]> {
  const json = { ...headers, "content-type": "application/json" };
  const { questions } = await ok<{ questions: { id: string; points: number }[] }>(url, {
    method: "GET",
    path: `/v1/quizzes/${quizId}/questions`,
    headers,
  });
  const first = questions[0];
  if (!first) throw new Error("the quiz has no question");
  await ok(url, {
    method: "PATCH",
    path: `/v1/quizzes/${quizId}/questions/${first.id}`,
    headers: json,
    body: JSON.stringify({ points: first.points + 1 }),
  });
  const runs: RegradeRun[] = [];
  for (const dryRun of [true, false]) {
    const started = performance.now();
    const job = await ok<{ id: string }>(url, {
      method: "POST",
      path: `/v1/quizzes/${quizId}/regrade`,
      headers: json,
      body: JSON.stringify({ dry_run: dryRun }),
    });
    for (;;) {
      const now = await ok<{ status: string; result: { submissions_considered: number; submissions_changed: number } | null }>(
        url,
        {
          method: "GET",
          path: `/v1/jobs/${job.id}`,
          headers,
        },
      );
      if (now.status === "failed") throw new Error(`the regrade failed: ${JSON.stringify(now)}`);
      if (now.status === "succeeded" && now.result) {
        runs.push({
          label: dryRun ? "dry run" : "applied",
          considered: now.result.submissions_considered,
          changed: now.result.submissions_changed,
          seconds: (performance.now() - started) / 1000,
        });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return runs;
}

export async function analyticsSuite(
  worker: LocalWorker,
  runner: LoadRunner,
  adminKey: string,
  data: AnalyticsData,
  loadBefore: number[],
) {
  const headers = { authorization: `Bearer ${adminKey}` };
  const list = [
    { key: "small", method: "GET" as const, headers, items: [{ path: `/v1/analytics/quiz/${data.small.quizId}` }] },
    { key: "large", method: "GET" as const, headers, items: [{ path: `/v1/analytics/quiz/${data.large.quizId}` }] },
    { key: "smallItems", method: "GET" as const, headers, items: [{ path: `/v1/analytics/quiz/${data.small.quizId}/items` }] },
    { key: "largeItems", method: "GET" as const, headers, items: [{ path: `/v1/analytics/quiz/${data.large.quizId}/items` }] },
  ];
  const starts = new Map<string, number>();
  const calls = new Map<string, CallCounts>();
  for (const e of list) calls.set(e.key, await countCalls(worker.url, { ...e, label: e.key }, starts));
  progress(`load: 2 quizzes × 2 reads × (${WARMUP_SECONDS} s warm-up + ${ANALYTICS_ROUNDS} × ${ANALYTICS_SECONDS} s)`);
  const results = await measure(runner, worker.url, list, starts, ANALYTICS_ROUNDS, ANALYTICS_SECONDS);
  const smallRuns = results.get("small") ?? [];
  const largeRuns = results.get("large") ?? [];
  const small = summarize(smallRuns);
  const large = summarize(largeRuns);
  // Paired round by round: both quizzes of a round ran back to back, under the same conditions.
  const ratio = median(largeRuns.map((r, i) => r.p50 / (smallRuns[i]?.p50 ?? Number.NaN)));
  const smallItemRuns = results.get("smallItems") ?? [];
  const largeItemRuns = results.get("largeItems") ?? [];
  const itemRatio = median(largeItemRuns.map((r, i) => r.p50 / (smallItemRuns[i]?.p50 ?? Number.NaN)));
  const verdict = (r: number) =>
    `**${r.toFixed(2)}** (target ≤ ${TARGET_ANALYTICS_RATIO}: ${r <= TARGET_ANALYTICS_RATIO ? "met ✅" : "missed ❌"})`;
  progress(`regrade of the large quiz (${int(data.large.submissions)} submissions): dry run, then applied`);
  const regrades = await regradeThroughput(worker.url, headers, data.large.quizId);
  const perRequest = (key: string, name: keyof Tally) => {
    const c = calls.get(key);
    return c ? (c.inRequest.own[name] / c.requests).toFixed(0) : "—";
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
        row("…/items, small quiz", data.small.submissions, smallItemRuns),
        row("…/items, large quiz", data.large.submissions, largeItemRuns),
      ],
    ),
    "",
    `Item analysis (GET /v1/analytics/quiz/{id}/items), p50 large / small (median of the rounds' ratios): ${verdict(itemRatio)}; work per request counted: small ${perRequest("smallItems", "d1")} D1 round trip, ${perRequest("smallItems", "rowsRead")} rows read; large ${perRequest("largeItems", "d1")} D1 round trip, ${perRequest("largeItems", "rowsRead")} rows read.`,
    "",
    `Quiz analytics, p50 large / small (median of the rounds' ratios): ${verdict(ratio)}; ratio of the medians ${(large.p50 / small.p50).toFixed(2)}; req/s small / large ${(small.rps / large.rps).toFixed(2)}; workerd CPU per request large / small ${(large.cpu / small.cpu).toFixed(2)}.`,
    "",
    `Work per request, counted (one at a time, ${COUNTED_REQUESTS} each): small quiz ${perRequest("small", "d1")} D1 round trip, ${perRequest("small", "rowsRead")} rows read (D1's meta.rows_read), ${perRequest("small", "kvReads")} KV read; large quiz ${perRequest("large", "d1")} D1 round trip, ${perRequest("large", "rowsRead")} rows read, ${perRequest("large", "kvReads")} KV read.`,
    "",
    table(
      ["Seeding step", "seconds"],
      Object.entries(data.timings).map(([step, s]) => [step, s.toFixed(1)]),
    ),
    "",
    `## Regrade of the large quiz (${int(data.large.submissions)} graded submissions, the first question's points changed)`,
    "",
    table(
      ["POST /v1/quizzes/{id}/regrade", "submissions considered", "changed", "seconds", "submissions/s"],
      regrades.map((r) => [r.label, int(r.considered), int(r.changed), r.seconds.toFixed(1), int(r.considered / r.seconds)]),
    ),
    "",
    "From the 202 to the job's succeeded status (polled every 200 ms), through the local jobs queue (one message per step, chunks of 40 submissions).",
    "",
    "Both quizzes' submissions are rows of the one submissions table; the read path answers from quiz_stats and item_sums, which the grading batch keeps current.",
    "",
    machine(loadBefore),
  ].join("\n");
}
