// Where the worker's CPU time goes: V8's sampling profiler on workerd's isolates while autocannon
// drives one endpoint, aggregated per function, per source line and per source bucket (npm
// package, src/ file).
//
//   npx tsx bench/profile.ts [--endpoint NAME[,NAME…]|all] [--seconds S] [--interval µS]
//                            [--warmup S] [--connections N] [--top N] [--side] [--native]
//                            [--focus STR …] [--var NAME=VALUE …] [--save DIR] [--keep]
//
// NAME is a key of bench/endpoints.ts (baseline, list-quizzes, get-quiz, create-user,
// create-submission, grade-sql, grade, results, quiz-analytics, token); default and "all": baseline,
// list-quizzes, grade-sql, grade, token. --seconds of profiled load per endpoint (default 10, at most 20),
// after --warmup seconds (default 2) of unprofiled load that also gives the reference CPU per
// request. --interval: V8's sampling interval (default 100 µs; workerd samples about every
// 200 µs whatever is asked below that). --side: also profile, in the same run, Miniflare's entry
// worker and the D1 and KV simulators, which share workerd's thread locally (their cost is not
// production's). --native: after the profiled window, as long again with V8's profiler off and
// Linux perf on the whole workerd process (bench/profile-native.ts): where the CPU that no
// isolate's profile sees goes (SQLite, HTTP, Headers/Request/Response objects, GC, JSON), against
// the baseline's when it ran too. --focus STR: print the merged callee tree under every frame of the endpoint's
// isolate whose "name location" contains STR (repeatable). --var NAME=VALUE: a var over the
// bench's (repeatable; e.g. LOG_LEVEL=warn). --save DIR writes each profile as
// DIR/<endpoint>.<isolate>.cpuprofile (open in Chrome DevTools → Performance, or re-read with
// bench/profile-analysis.ts) with the bundle and its source map beside it.
//
// How: the project's build as deployed but unminified (scripts/build.ts, with its source map),
// served by scripts/local-worker.ts with workerd's inspector on a free port, seeded by the
// bench's own seeder (bench/seed-bench.ts), loaded by the bench's load runner (bench/load.ts);
// the profiler runs over the Chrome DevTools Protocol on the endpoint's isolate (the app, or the
// baseline worker). Markdown to stdout, progress to stderr. The build is of the working tree:
// src/ must compile.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type LocalWorker, startLocalWorker } from "../scripts/local-worker";
import { bundleBenchWorker, projectBuild } from "./bundle";
import { workerdPids } from "./cpu";
import { BASELINE_HOST, type Endpoint, endpoints } from "./endpoints";
import { GRADE_SQL_HOST, handOverGradePlans } from "./grade-plans";
import { closeAgent, request } from "./http";
import { LoadRunner } from "./load";
import { itemAt, type LoadResult } from "./load-spec";
import { analyse, BundleSources, type CpuProfile, calleeTree, FrameResolver, report } from "./profile-analysis";
import { analyseNative, type NativeAnalysis, nativeReport, perfAvailable, readPerf, startPerf } from "./profile-native";
import { int, ms, table } from "./report";
import { benchDb, loadQuizzes, seedBench } from "./seed-bench";
import { SQL_WORKER_HOST } from "./sql-client";

const { values: opts } = parseArgs({
  options: {
    endpoint: { type: "string", default: "all" },
    seconds: { type: "string", default: "10" },
    interval: { type: "string", default: "100" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "10" },
    top: { type: "string", default: "30" },
    save: { type: "string" },
    keep: { type: "boolean" },
    side: { type: "boolean" },
    native: { type: "boolean" },
    focus: { type: "string", multiple: true },
    var: { type: "string", multiple: true },
  },
});
const SECONDS = Number(opts.seconds);
const WARMUP = Number(opts.warmup);
const INTERVAL_US = Number(opts.interval);
const CONNECTIONS = Number(opts.connections);
const TOP = Number(opts.top);
if (!(SECONDS > 0 && SECONDS <= 20)) throw new Error(`--seconds must be in (0, 20], not ${opts.seconds}`);
if (!(WARMUP >= 0 && WARMUP <= 10)) throw new Error(`--warmup must be in [0, 10], not ${opts.warmup}`);
if (!(INTERVAL_US >= 50)) throw new Error(`--interval must be ≥ 50 µs, not ${opts.interval}`);
const DEFAULT_ENDPOINTS = ["baseline", "list-quizzes", "grade-sql", "grade", "token"];
const wanted =
  opts.endpoint === "all"
    ? DEFAULT_ENDPOINTS
    : String(opts.endpoint)
        .split(",")
        .map((s) => s.trim());

// bench/config.ts parses the bench's own command line when imported (strictly: it would refuse
// --endpoint); the profile's options are read above, so it sees none.
const argv = process.argv;
process.argv = argv.slice(0, 2);
const { BENCH_VARS } = await import("./config");
const { loadOnce } = await import("./measure");
process.argv = argv;
/** --var NAME=VALUE: vars over the bench's (e.g. LOG_LEVEL=warn, to see what the request log costs). */
const VARS: Record<string, string> = { ...BENCH_VARS };
for (const pair of opts.var ?? []) {
  const at = pair.indexOf("=");
  if (at <= 0) throw new Error(`--var takes NAME=VALUE, not ${pair}`);
  VARS[pair.slice(0, at)] = pair.slice(at + 1);
}

const started = performance.now();
const progress = (message: string) =>
  process.stderr.write(`[profile ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}\n`);

/** Workers names as Miniflare names them; the inspector lists one target per worker, `core:user:<name>`. */
const APP_WORKER = "quiz-api";
const BASELINE_WORKER = "bench-baseline";
const GRADE_SQL_WORKER = "bench-grade-sql";
/** The isolate that serves an endpoint: the app, or the bare worker a baseline names. */
const isolateOf = (e: Endpoint) =>
  `core:user:${e.key === "grade-sql" ? GRADE_SQL_WORKER : e.baseline ? BASELINE_WORKER : APP_WORKER}`;
/** Local-only isolates on the same thread, profiled alongside for the record. */
const SIDE_TARGETS: { id: string; label: string }[] = [
  { id: "core:entry", label: "Miniflare entry worker (routing)" },
  { id: "d1:db", label: "D1 simulator (SQLite)" },
  { id: "kv:ns", label: "KV simulator" },
];

/** The little of the `ws` package's client this uses (the package ships no types, and Node 20 has no WebSocket). */
interface WsClient {
  on(event: "message", listener: (data: unknown) => void): void;
  on(event: "close", listener: () => void): void;
  once(event: "open", listener: () => void): void;
  once(event: "error", listener: (error: Error) => void): void;
  send(data: string): void;
  close(): void;
}
const WS_PACKAGE = "ws"; // a variable: TypeScript would look for the types the package lacks
const { default: WebSocket } = (await import(WS_PACKAGE)) as {
  default: new (url: string, options: { maxPayload: number }) => WsClient;
};

/** A Chrome DevTools Protocol session over one inspector target. */
class CdpSession {
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();

  private constructor(
    private readonly ws: WsClient,
    readonly target: string,
  ) {
    ws.on("message", (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (msg.id === undefined) return;
      const waiter = this.pending.get(msg.id);
      if (!waiter) return;
      this.pending.delete(msg.id);
      if (msg.error) waiter.reject(new Error(`${target}: ${msg.error.message}`));
      else waiter.resolve(msg.result);
    });
    ws.on("close", () => {
      for (const w of this.pending.values()) w.reject(new Error(`${target}: inspector connection closed`));
      this.pending.clear();
    });
  }

  static open(url: string, target: string): Promise<CdpSession> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { maxPayload: 1024 * 1024 * 1024 });
      ws.once("open", () => resolve(new CdpSession(ws, target)));
      ws.once("error", reject);
    });
  }

  send<T = any>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  close() {
    this.ws.close();
  }
}

interface Target {
  id: string;
  webSocketDebuggerUrl: string;
}

async function inspectorTargets(worker: LocalWorker): Promise<Target[]> {
  const url = await worker.mf.getInspectorURL();
  // The inspector listens on localhost; ask it on 127.0.0.1 only.
  const res = await fetch(`http://127.0.0.1:${url.port}/json`);
  const targets = (await res.json()) as Target[];
  return targets.map((t) => ({
    ...t,
    webSocketDebuggerUrl: t.webSocketDebuggerUrl.replace(/^ws:\/\/[^/]+/, `ws://127.0.0.1:${url.port}`),
  }));
}

interface Run {
  endpoint: Endpoint;
  /** The first request's answer. */
  probe: { status: number; bytes: number; headers: string[] };
  warmup?: LoadResult & { cpuMs: number };
  profiled: LoadResult & { cpuMs: number };
  profiles: Map<string, CpuProfile>;
  /** --native: a window of its own with perf on workerd and V8's profiler off. */
  native?: { load: LoadResult & { cpuMs: number }; analysis: NativeAnalysis };
}

async function main() {
  const dir = mkdtempSync(join(os.tmpdir(), "quiz-profile-"));
  const runner = new LoadRunner();
  let worker: LocalWorker | undefined;
  const sessions: CdpSession[] = [];
  const cleanup = async () => {
    for (const s of sessions) s.close();
    runner.close();
    closeAgent();
    await worker?.dispose();
    worker = undefined;
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  };
  process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));
  try {
    progress(`building unminified, with source map (temp dir ${dir})`);
    // The build `npm run deploy` uploads, but unminified, so that functions keep their names.
    const app = await projectBuild(join(dir, "app"), false, false);
    const mapFile = `${app.file}.map`;
    const extraWorkers = [];
    for (const w of [
      { name: "bench-sql", entry: "bench/sql-worker.ts", host: SQL_WORKER_HOST },
      { name: BASELINE_WORKER, entry: "bench/baseline-worker.ts", host: BASELINE_HOST },
      { name: GRADE_SQL_WORKER, entry: "bench/grade-sql-worker.ts", host: GRADE_SQL_HOST },
    ])
      extraWorkers.push({
        name: w.name,
        host: w.host,
        scriptPath: await bundleBenchWorker(w.entry, join(dir, "workers", w.name, "index.js")),
      });
    progress("starting Miniflare with workerd's inspector");
    worker = await startLocalWorker({
      scriptPath: app.file,
      persistRoot: join(dir, "state"),
      vars: VARS,
      quiet: true,
      extraWorkers,
      inspectorPort: 0,
    });
    const targets = await inspectorTargets(worker);
    const urlOf = (id: string) => targets.find((t) => t.id === id)?.webSocketDebuggerUrl;

    progress("seeding (bench/seed-bench.ts)");
    const data = await seedBench(worker);
    const list = endpoints(data, await loadQuizzes(await benchDb(worker), data.quizIds));
    const selected = wanted.map((key) => {
      const e = list.find((x) => x.key === key);
      if (!e) throw new Error(`unknown endpoint ${key}; one of ${list.map((x) => x.key).join(", ")}`);
      return e;
    });
    if (wanted.includes("grade-sql")) await handOverGradePlans(worker, data.gradeSqlIds);

    const open = new Map<string, CdpSession>();
    const session = async (id: string) => {
      let s = open.get(id);
      if (!s) {
        const url = urlOf(id);
        if (!url) throw new Error(`no inspector target ${id}; targets: ${targets.map((t) => t.id).join(", ")}`);
        s = await CdpSession.open(url, id);
        await s.send("Profiler.enable");
        sessions.push(s);
        open.set(id, s);
      }
      return s;
    };

    const pids = workerdPids();
    if (pids.length === 0) progress("warning: no workerd child process found; CPU per request from /proc unavailable");
    if (opts.native && !perfAvailable()) throw new Error("--native needs Linux perf (perf record / perf script) on the PATH");
    const starts = new Map<string, number>();
    const load = (e: Endpoint, seconds: number) => loadOnce(runner, worker?.url as string, e, starts, seconds, pids, CONNECTIONS);

    const runs: Run[] = [];
    for (const e of selected) {
      const mainTarget = isolateOf(e);
      const ids = [mainTarget, ...(opts.side ? SIDE_TARGETS.map((t) => t.id).filter((id) => urlOf(id)) : [])];
      // A first request: the endpoint must answer 2xx, or its profile is of an error path.
      const first = starts.get(e.key) ?? 0;
      const item = itemAt({ items: e.items.map((x) => ({ ...x, body: x.body?.replaceAll("{n}", "probe") })) }, first);
      if (e.consumable) starts.set(e.key, first + 1);
      const res = await request(worker.url, {
        method: e.method,
        path: item.path,
        headers: e.headers,
        body: item.body,
      });
      if (res.status < 200 || res.status >= 300) throw new Error(`${e.key}: ${res.status} ${res.text.slice(0, 300)}`);
      const probe = { status: res.status, bytes: Buffer.byteLength(res.text), headers: Object.keys(res.headers) };
      let warmup: Run["warmup"];
      if (WARMUP > 0) {
        progress(`${e.key}: ${WARMUP} s warm-up (not profiled)`);
        warmup = await load(e, WARMUP);
      }
      const live = await Promise.all(ids.map(session));
      for (const s of live) {
        await s.send("Profiler.setSamplingInterval", { interval: INTERVAL_US });
        await s.send("Profiler.start");
      }
      progress(`${e.key}: ${SECONDS} s profiled (${ids.join(", ")}; every ${INTERVAL_US} µs)`);
      const profiled = await load(e, SECONDS);
      const profiles = new Map<string, CpuProfile>();
      for (const s of live) profiles.set(s.target, (await s.send<{ profile: CpuProfile }>("Profiler.stop")).profile);
      const bad = profiled.non2xx + profiled.errors + profiled.timeouts;
      progress(
        `${e.key}: ${int(profiled.total)} responses, ${int(profiled.requestsPerSecond)} req/s, workerd CPU ${ms(profiled.cpuMs / profiled.total)} ms/req` +
          (bad ? `, ⚠️ non-2xx/errors: ${JSON.stringify(profiled.statuses)} errors ${profiled.errors}` : ""),
      );
      if (e.consumable && (starts.get(e.key) ?? 0) > e.items.length)
        progress(`${e.key}: ⚠️ the pool of ${e.items.length} items ran out; later requests re-used items`);
      let native: Run["native"];
      if (opts.native && pids[0] !== undefined) {
        const file = join(dir, `${e.key}.perf.data`);
        progress(`${e.key}: ${SECONDS} s under perf (whole workerd process; V8's profiler off)`);
        const perf = startPerf(pids[0], file);
        const nativeLoad = await load(e, SECONDS);
        await perf.stop();
        native = { load: nativeLoad, analysis: analyseNative(await readPerf(file), nativeLoad.total) };
        if (opts.save) {
          mkdirSync(opts.save, { recursive: true });
          copyFileSync(file, join(opts.save, `${e.key}.perf.data`));
        }
      }
      runs.push({ endpoint: e, probe, warmup, profiled, profiles, native });
      if (opts.save) {
        mkdirSync(opts.save, { recursive: true });
        for (const [target, p] of profiles)
          writeFileSync(join(opts.save, `${e.key}.${target.replaceAll(":", "_")}.cpuprofile`), JSON.stringify(p));
        copyFileSync(app.file, join(opts.save, "index.js"));
        copyFileSync(mapFile, join(opts.save, "index.js.map"));
      }
    }

    // The report.
    // workerd names a module by its path under modulesRoot: both bundles are "index.js", told apart by isolate.
    const appSources = new BundleSources(app.file, (url) => url === "index.js" || url.endsWith("/index.js"));
    const out: string[] = [
      `# CPU profile (${SECONDS} s per endpoint, ${CONNECTIONS} connections, sampling every ${INTERVAL_US} µs)`,
      "",
      "Unminified deployed build with source map; ms/request from samples = samples × median sampling interval ÷ responses. " +
        "V8's profile covers one isolate's JavaScript and the native API calls it makes while it holds the isolate; workerd's own work " +
        "outside it (HTTP, the Miniflare entry worker, the D1 and KV simulators, most of the garbage collector) is not in it: see " +
        '"workerd CPU" for the whole process, and --native for where that goes.',
      "",
      "⚠️ With the inspector on, V8 records every console.log for DevTools: the request log line (src/lib/log.ts) costs about " +
        "0.04–0.07 ms here and close to nothing without the inspector (perf, no inspector: Builtin_ConsoleLog in < 0.01 % of samples).",
      "",
    ];
    const perReq = (samples: number, interval: number, n: number) => (n > 0 ? (samples * interval) / 1000 / n : Number.NaN);
    const summary: string[][] = [];
    const sections: string[] = [];
    for (const r of runs) {
      const e = r.endpoint;
      const n = r.profiled.total;
      const mainTarget = isolateOf(e);
      const cells: Record<string, string> = {};
      for (const [target, profile] of r.profiles) {
        const resolver =
          target === `core:user:${APP_WORKER}`
            ? new FrameResolver([appSources], (url) => url)
            : target === `core:user:${BASELINE_WORKER}` || target === `core:user:${GRADE_SQL_WORKER}`
              ? new FrameResolver([], (url) =>
                  url.endsWith("index.js") ? `bench/${target.slice("core:user:bench-".length)}-worker.ts (bundle)` : url,
                )
              : new FrameResolver([], (url) => url);
        const a = analyse(profile, resolver);
        cells[target] = ms(perReq(a.nonIdle, a.intervalUs, n));
        if (target === mainTarget) {
          sections.push(
            `## ${e.label} — isolate ${target}`,
            "",
            `Answer: ${r.probe.status}, ${int(r.probe.bytes)} bytes of body, ${r.probe.headers.length} headers (${r.probe.headers.join(", ")}).`,
            "",
            report(a, {
              requests: n,
              top: TOP,
              totalsFor: e.baseline ? [] : ["src/"],
              totalsTop: 30,
              attribute: !e.baseline,
            }),
          );
          for (const focus of opts.focus ?? [])
            sections.push(
              `Callees of \`${focus}\`:`,
              "",
              calleeTree(profile, resolver, focus, { depth: 6, minPercent: 0.3 }),
              "",
            );
        } else {
          sections.push(
            `### Same run, isolate ${target} (${SIDE_TARGETS.find((t) => t.id === target)?.label ?? ""}): local simulation, not production cost`,
            "",
            report(a, { requests: n, top: 8 }),
          );
        }
      }
      if (r.native) {
        const reference = e.baseline ? undefined : runs.find((x) => x.endpoint.key === (e.against ?? "baseline"))?.native;
        sections.push(
          `### ${e.label}: the whole workerd process under perf (${SECONDS} s of its own, ${int(r.native.load.total)} responses, workerd CPU ${ms(r.native.load.cpuMs / r.native.load.total)} ms/req by /proc)`,
          "",
          nativeReport(r.native.analysis, reference && { label: "baseline", analysis: reference.analysis }),
          "",
        );
      }
      summary.push([
        e.label,
        int(n),
        int(r.profiled.requestsPerSecond),
        r.warmup ? ms(r.warmup.cpuMs / r.warmup.total) : "—",
        ms(r.profiled.cpuMs / n),
        cells[mainTarget] ?? "—",
        ...(opts.side ? SIDE_TARGETS.map((t) => cells[t.id] ?? "—") : []),
        ...(opts.native ? [r.native ? ms(r.native.load.cpuMs / r.native.load.total) : "—"] : []),
        r.profiled.non2xx + r.profiled.errors + r.profiled.timeouts === 0 ? "0" : JSON.stringify(r.profiled.statuses),
      ]);
    }
    out.push(
      table(
        [
          "Endpoint",
          "responses",
          "req/s (profiled)",
          "workerd CPU ms/req, warm-up (unprofiled)",
          "workerd CPU ms/req, profiled",
          "endpoint isolate ms/req (V8 samples)",
          ...(opts.side ? SIDE_TARGETS.map((t) => `${t.label} ms/req`) : []),
          ...(opts.native ? ["workerd CPU ms/req, perf window"] : []),
          "non-2xx",
        ],
        summary,
      ),
      "",
      ...sections,
    );
    process.stdout.write(`${out.join("\n")}\n`);
    progress(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await cleanup();
  }
}

await main();
