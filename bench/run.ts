// npm run bench            the whole suite: bundle sizes, binding calls, throughput, analytics, results export
// npm run bench:analytics  the analytics read at 100 vs 100 000 submissions only
// npm run bench:export     the results export of those quizzes only
// npm run bench -- --only interchange   the question-bank import and export only
// npm run bench -- --only main    the throughput, binding calls and cost tables only
// npm run bench -- --only burst   the exam's last minute only (5 000 deadlines, 200 learners)
// npm run bench -- --only saves   one-answer saves (autosave) against the baseline only
//
// Options: --rounds N (3), --duration S (5), --connections N (10), --keep (keep the temp state),
// --out FILE (bench/results/latest.md). Prints Markdown to stdout (progress goes to stderr) and
// writes it to the out file, replacing only the sections this run measured.
// See bench/README.md for what is measured and how to read it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { startLocalWorker } from "../scripts/local-worker";
import { bundleBenchWorker, composition, projectBuild, wranglerBuild } from "./bundle";
import { args, BENCH_VARS, progress, RESULTS_FILE, started } from "./config";
import { BASELINE_HOST, COUNTING_HOST } from "./endpoints";
import { GRADE_SQL_HOST } from "./grade-plans";
import { closeAgent } from "./http";
import { LoadRunner } from "./load";
import { replaceSection } from "./report";
import { seedAnalytics } from "./seed-analytics";
import { benchDb, createAdminKey } from "./seed-bench";
import { SQL_WORKER_HOST } from "./sql-client";
import { analyticsSuite } from "./suite-analytics";
import { burstSuite } from "./suite-burst";
import { contentSuite } from "./suite-content";
import { exportSuite } from "./suite-export";
import { interchangeSuite } from "./suite-interchange";
import { mainSuite, type Workers } from "./suite-main";
import { savesSuite } from "./suite-saves";

async function buildAndServe(full: boolean, baseline: boolean): Promise<Workers> {
  const dir = mkdtempSync(join(os.tmpdir(), "quiz-bench-"));
  try {
    return await buildAndServeIn(dir, full, baseline);
  } catch (error) {
    if (!args.keep) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function buildAndServeIn(dir: string, full: boolean, baseline: boolean): Promise<Workers> {
  progress(`building (temp dir ${dir})`);
  // Served: the bundle `npm run deploy` uploads.
  const deployed = await projectBuild(join(dir, "deploy"), true, full);
  const unminified = full ? await projectBuild(join(dir, "unminified"), false, false) : undefined;
  const wranglerMinified = full ? wranglerBuild(join(dir, "wrangler-minified"), true) : undefined;
  const parts = full ? await composition("src/index.ts") : undefined;
  const extra = [
    { name: "bench-sql", entry: "bench/sql-worker.ts", host: SQL_WORKER_HOST },
    { name: "bench-counting", entry: "bench/counting-entry.ts", host: COUNTING_HOST },
    ...(baseline ? [{ name: "bench-baseline", entry: "bench/baseline-worker.ts", host: BASELINE_HOST }] : []),
    ...(full ? [{ name: "bench-grade-sql", entry: "bench/grade-sql-worker.ts", host: GRADE_SQL_HOST }] : []),
  ];
  const extraWorkers = [];
  for (const w of extra)
    extraWorkers.push({
      name: w.name,
      host: w.host,
      scriptPath: await bundleBenchWorker(w.entry, join(dir, "workers", w.name, "index.js")),
    });
  progress("starting Miniflare");
  const worker = await startLocalWorker({
    scriptPath: deployed.file,
    persistRoot: join(dir, "state"),
    vars: BENCH_VARS,
    quiet: true,
    extraWorkers,
  });
  return { worker, dir, deployed, unminified, wranglerMinified, parts };
}

async function main() {
  const only = args.only;
  const parts = ["analytics", "export", "interchange", "main", "burst", "saves", "content"];
  if (only !== undefined && !parts.includes(only)) throw new Error(`--only takes one of ${parts.join(", ")}, not ${only}`);
  const full = only === undefined || only === "main";
  const loadBefore = os.loadavg();
  if (only === "content") {
    // Node and esbuild only: no worker to build or serve.
    const content = await contentSuite(loadBefore);
    process.stdout.write(`${content}\n\n`);
    const doc = existsSync(RESULTS_FILE) ? readFileSync(RESULTS_FILE, "utf8") : "# Benchmark results\n";
    return finish(replaceSection(doc, "bench:content", content));
  }
  const workers = await buildAndServe(full, full || only === "saves");
  const runner = new LoadRunner();
  const cleanup = async () => {
    runner.close();
    closeAgent();
    await workers.worker.dispose();
    if (!args.keep) rmSync(workers.dir, { recursive: true, force: true });
  };
  process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));
  try {
    let doc = existsSync(RESULTS_FILE)
      ? readFileSync(RESULTS_FILE, "utf8")
      : "# Benchmark results\n\nWritten by `npm run bench` (and, for its section, `npm run bench:analytics`); see bench/README.md.\n";
    if (full) {
      const main = await mainSuite(workers, runner, loadBefore);
      process.stdout.write(`${main}\n\n`);
      doc = replaceSection(doc, "bench:main", main);
    }
    if (full) {
      const content = await contentSuite(loadBefore);
      process.stdout.write(`${content}\n\n`);
      doc = replaceSection(doc, "bench:content", content);
    }
    if (only === "main") return finish(doc);
    if (only === undefined || only === "burst") {
      const bundle = (name: string) => join(workers.dir, "workers", name, "index.js");
      const burst = await burstSuite(workers.dir, { counting: bundle("bench-counting"), sql: bundle("bench-sql") }, loadBefore);
      process.stdout.write(`${burst}\n\n`);
      doc = replaceSection(doc, "bench:burst", burst);
    }
    if (only === "burst") return finish(doc);
    if (only === undefined || only === "saves") {
      const saves = await savesSuite(workers.worker, runner, loadBefore);
      process.stdout.write(`${saves}\n\n`);
      doc = replaceSection(doc, "bench:saves", saves);
    }
    if (only === "saves") return finish(doc);
    const adminKey = await createAdminKey(await benchDb(workers.worker));
    if (full || only === "interchange") {
      const banks = await interchangeSuite(workers.worker, adminKey, loadBefore);
      process.stdout.write(`${banks}\n\n`);
      doc = replaceSection(doc, "bench:interchange", banks);
    }
    if (only === "interchange") return finish(doc);
    progress("seeding analytics: 100 and 100 000 graded submissions");
    const data = await seedAnalytics(workers.worker, adminKey);
    if (only !== "export") {
      const analytics = await analyticsSuite(workers.worker, runner, adminKey, data, loadBefore);
      process.stdout.write(`${analytics}\n`);
      doc = replaceSection(doc, "bench:analytics", analytics);
    }
    if (only !== "analytics") {
      const exports = await exportSuite(workers.worker, adminKey, data, loadBefore);
      process.stdout.write(`${exports}\n`);
      doc = replaceSection(doc, "bench:export", exports);
    }
    finish(doc);
  } finally {
    await cleanup();
  }
}

function finish(doc: string) {
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, doc);
  progress(`done in ${((performance.now() - started) / 1000).toFixed(0)} s; wrote ${RESULTS_FILE}`);
}

await main();
