// The main suite: throughput of each endpoint against the bare baseline, binding calls per
// request, bundle sizes.
import type { LocalWorker } from "../scripts/local-worker";
import type { BundleSize } from "./bundle";
import {
  CONNECTIONS,
  COUNTED_REQUESTS,
  DURATION_SECONDS,
  machine,
  progress,
  ROUNDS,
  TARGET_GRADE_CPU_FACTOR,
  TARGET_GZIP_KIB,
  TARGET_LIST_RATIO,
  TARGET_WRITE_RATIOS,
  UNTHROTTLED,
  WARMUP_SECONDS,
} from "./config";
import { COST_RATES, type CredentialRuns, costSection, limitFor } from "./cost";
import { BASELINE_HOST, endpoints } from "./endpoints";
import { GRADE_READ_SQL, GRADE_SQL_HOST, handOverGradePlans } from "./grade-plans";
import { request } from "./http";
import { LIST_QUIZZES_SQL } from "./list-quizzes-sql";
import type { LoadRunner } from "./load";
import { countCalls, credentialRun, measure } from "./measure";
import {
  bundleTable,
  type CallCounts,
  callsTable,
  compositionTable,
  type EndpointRuns,
  int,
  kib,
  median,
  pct,
  summarize,
  table,
  throughputTable,
} from "./report";
import { type BenchData, benchDb, loadQuizzes, seedBench } from "./seed-bench";

/** The served workers and the builds they came from (bundle sizes only in the full suite). */
export interface Workers {
  worker: LocalWorker;
  dir: string;
  /** `npm run build`: what `npm run deploy` uploads, and what the bench serves. */
  deployed: BundleSize;
  unminified?: BundleSize;
  /** wrangler's own bundling, minified, without the project's zod plugin. */
  wranglerMinified?: BundleSize;
  parts?: { name: string; bytes: number }[];
}

export async function mainSuite(workers: Workers, runner: LoadRunner, loadBefore: number[]) {
  const { worker } = workers;
  progress("seeding 200 quizzes × 20 questions, 1 000 users, 10 000 graded submissions");
  const data: BenchData = await seedBench(worker);
  const quizzes = await loadQuizzes(await benchDb(worker), data.quizIds);
  progress(`planning the grades of ${int(data.gradeSqlIds.length)} submissions for the grade's SQL baseline`);
  const plans = await handOverGradePlans(worker, data.gradeSqlIds);
  const list = endpoints(data, quizzes);
  const starts = new Map<string, number>();
  const checks: string[] = [];

  // The baseline must answer what the app answers, from the query the app runs.
  const auth = { authorization: `Bearer ${data.adminKey}` };
  const appPage = await request(worker.url, { method: "GET", path: "/v1/quizzes?limit=20", headers: auth });
  const basePage = await request(worker.url, { method: "GET", path: "/v1/quizzes?limit=20", headers: { host: BASELINE_HOST } });
  checks.push(
    appPage.text === basePage.text
      ? `- The baseline's body for GET /v1/quizzes?limit=20 is byte-for-byte the app's (${int(appPage.text.length)} bytes).`
      : `- ⚠️ The baseline's body differs from the app's (${appPage.text.length} vs ${basePage.text.length} bytes): the ratio compares different work.`,
  );

  // The grade's SQL baseline answers what the app's grade answers, from the app's own statements.
  const probe = list.find((e) => e.key === "grade-sql");
  const probed = probe?.items[0]
    ? await request(worker.url, { method: "POST", path: probe.items[0].path, headers: { host: GRADE_SQL_HOST } })
    : undefined;
  starts.set("grade-sql", 1);
  checks.push(
    probed?.status === 200 && typeof probed.json?.score === "number"
      ? `- The grade's SQL baseline runs, per submission, the read the app's grade sends and the batch src/grading/grade.ts plans for it (planGrade, planned in Node for ${int(plans.plans)} submissions the app never grades: ${int(plans.bytesPerPlan)} bytes of SQL and values a grade), and answers the app's body; its first grade claimed its submission.`
      : `- ⚠️ The grade's SQL baseline did not grade its first submission (${probed?.status ?? "no probe"}): its figures measure something else.`,
  );

  progress("counting binding calls per request");
  const calls: CallCounts[] = [];
  for (const e of list.filter((x) => !x.baseline)) calls.push(await countCalls(worker.url, e, starts));
  const gradeSql = Object.keys(calls.find((c) => c.key === "grade")?.prepared ?? {});
  checks.push(
    GRADE_READ_SQL.every((text) => gradeSql.includes(text))
      ? "- The app's grade prepares the read the grade's SQL baseline runs (bench/grade-plans.ts), checked through the counting worker."
      : "- ⚠️ The app's grade no longer prepares the read of bench/grade-plans.ts: the grade's SQL baseline runs another read.",
  );
  const listSql = Object.keys(calls.find((c) => c.label === "GET /v1/quizzes?limit=20")?.prepared ?? {});
  checks.push(
    listSql.includes(LIST_QUIZZES_SQL)
      ? "- The app's SQL for the page is the baseline's (bench/list-quizzes-sql.ts), checked through the counting worker."
      : `- ⚠️ The app's SQL for the page is not the baseline's any more; the app prepared: ${listSql.map((s) => `\`${s}\``).join("; ")}`,
  );

  progress(
    `load: ${list.length} endpoints × (${WARMUP_SECONDS} s warm-up + ${ROUNDS} × ${DURATION_SECONDS} s), ${CONNECTIONS} connections`,
  );
  const results = await measure(runner, worker.url, list, starts);
  const runs: EndpointRuns[] = list.map((e) => {
    const own = results.get(e.key) ?? [];
    const baselineRuns = results.get(e.against ?? "baseline") ?? [];
    const ratio = e.baseline
      ? undefined
      : median(own.map((r, i) => r.requestsPerSecond / (baselineRuns[i]?.requestsPerSecond ?? Number.NaN)));
    const cpuRatio = e.baseline ? undefined : summarize(baselineRuns).cpu / summarize(own).cpu;
    let note: string | undefined;
    const used = starts.get(e.key) ?? 0;
    if (e.consumable)
      note =
        used <= e.items.length
          ? `every request graded a fresh submission (${int(used)} of a pool of ${int(e.items.length)} used)`
          : `pool of ${int(e.items.length)} ran out after that many; ${int(used - e.items.length)} later requests ${e.baseline ? "answered 404 or 409" : "re-graded (idempotent path)"}`;
    if (e.against) note = `against the grade's SQL baseline above; ${note}`;
    if (e.key === "create-user") note = "a new user (unique e-mail) per request";
    if (e.key === "token") note = "1 KV write (the access token) and 1 D1 batch (the grant) a token";
    return { label: e.label, runs: own, ratio, cpuRatio, note };
  });
  const listRuns = runs.find((r) => r.label === "GET /v1/quizzes?limit=20");

  progress("playing one credential's background work at 1 and 1 000 requests/s (virtual clock)");
  const credentialRuns = { api_key: {}, ip: {} } as CredentialRuns;
  for (const kind of ["api_key", "ip"] as const)
    for (const rate of COST_RATES)
      credentialRuns[kind][rate] = await credentialRun(worker.url, kind, rate, rate === 1 ? 600 : 120, limitFor(kind, rate));
  const cpuByLabel = new Map(runs.map((r) => [r.label, summarize(r.runs).cpu]));
  const cost = costSection(calls, cpuByLabel, credentialRuns, "GET /v1/quizzes?limit=20");
  const gradeCpu = summarize(results.get("grade") ?? []).cpu / summarize(results.get("grade-sql") ?? []).cpu;
  const gradeTarget = `Target: a grade's workerd CPU per request ≤ ${TARGET_GRADE_CPU_FACTOR} × the grade's SQL baseline's — measured ${gradeCpu.toFixed(2)} ×: ${gradeCpu <= TARGET_GRADE_CPU_FACTOR ? "met" : "missed"}.`;
  const writeTargets = Object.entries(TARGET_WRITE_RATIOS).map(([key, target]) => {
    const e = list.find((x) => x.key === key);
    const ratio = runs.find((r) => r.label === e?.label)?.ratio ?? Number.NaN;
    return `Target: ${e?.label} ≥ ${pct(target)} of the baseline's requests/s — measured ${pct(ratio)}: ${ratio >= target ? "met" : "missed"}.`;
  });

  const seeding = table(
    ["Seeding step", "seconds"],
    Object.entries(data.timings).map(([step, s]) => [step, s.toFixed(1)]),
  );
  const { deployed, unminified, wranglerMinified, parts } = workers;
  const bundleSection =
    unminified && wranglerMinified && parts
      ? [
          bundleTable(
            [
              ["`npm run build` (minified, zod's English locale only): what `npm run deploy` uploads", deployed, true],
              ["`npm run build -- --no-minify`", unminified, false],
              ["for comparison: wrangler's own bundling, `wrangler deploy --dry-run --minify`", wranglerMinified, false],
            ],
            TARGET_GZIP_KIB,
          ),
          "",
          `Target: ≤ ${TARGET_GZIP_KIB} KiB gzip minified — measured ${kib(deployed.gzip)}: ${deployed.gzip <= TARGET_GZIP_KIB * 1024 ? "met" : "missed"}.`,
          "",
          compositionTable(parts),
        ].join("\n")
      : "";
  const listRatio = listRuns?.ratio ?? Number.NaN;

  return [
    `## Throughput (${ROUNDS} interleaved rounds × ${DURATION_SECONDS} s per endpoint, ${CONNECTIONS} connections, medians)`,
    "",
    throughputTable(runs, { key: "list-quizzes", ratio: TARGET_LIST_RATIO }, "GET /v1/quizzes?limit=20"),
    "",
    `Target: authenticated, rate-limited GET /v1/quizzes ≥ ${pct(TARGET_LIST_RATIO)} of the baseline — measured ${pct(listRatio)}: ${listRatio >= TARGET_LIST_RATIO ? "met" : "missed"}.`,
    ...writeTargets,
    gradeTarget,
    "",
    "\"vs baseline\" is against the list's baseline, but for the grade: against the grade's SQL baseline, the same D1 work with nothing around it.",
    "",
    ...checks,
    "",
    `## Binding calls per request (${COUNTED_REQUESTS} requests per endpoint, one at a time)`,
    "",
    callsTable(calls),
    "",
    "The endpoint's own work, per request: D1 round trips (a batch is one) and the rows D1 reports; \"after the response\" is its waitUntil work. The credential's part (key lookup, rate-limit counters, usage flushes) depends on the credential's request rate, not on the endpoint: see the cost section.",
    "",
    cost.markdown,
    "",
    `## Bundle (target ≤ ${TARGET_GZIP_KIB} KiB gzip, minified)`,
    "",
    bundleSection,
    "",
    "## Seeding",
    "",
    seeding,
    "",
    `Vars for the bench: RATE_LIMIT_REQUESTS, ANONYMOUS_RATE_LIMIT_REQUESTS and TOKEN_RATE_LIMIT_REQUESTS = ${UNTHROTTLED} (the limiter still runs on every request).`,
    "",
    machine(loadBefore),
  ].join("\n");
}
