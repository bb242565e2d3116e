// The bench's settings (command line, targets) and its shared output helpers.
import { createRequire } from "node:module";
import os from "node:os";
import { parseArgs } from "node:util";

export const { values: args } = parseArgs({
  options: {
    only: { type: "string" },
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "10" },
    keep: { type: "boolean" },
    out: { type: "string", default: "bench/results/latest.md" },
  },
});
export const ROUNDS = Number(args.rounds);
export const DURATION_SECONDS = Number(args.duration);
export const CONNECTIONS = Number(args.connections);
export const WARMUP_SECONDS = 1;
/** Requests per endpoint sent one at a time through the counting worker. */
export const COUNTED_REQUESTS = 40;
/** Write-behind work (rate-limit counters, key usage) runs at most 1 s after the request that scheduled it. */
export const BACKGROUND_SETTLE_MS = 1300;
export const TARGET_LIST_RATIO = 0.8;
/** Requests/s of the list's baseline that the token endpoint should reach. */
export const TARGET_WRITE_RATIOS: Record<string, number> = { token: 0.5 };
/** A grade's workerd CPU per request, at most this many times that of a bare worker running the grade's own SQL. */
export const TARGET_GRADE_CPU_FACTOR = 2;
export const TARGET_GZIP_KIB = 150;
export const TARGET_ANALYTICS_RATIO = 1.3;
/** Two endpoints only: more, shorter rounds for about the same time give steadier paired ratios (5 × 3 s by default). */
export const ANALYTICS_ROUNDS = ROUNDS + 2;
export const ANALYTICS_SECONDS = Math.max(1, Math.round(DURATION_SECONDS * 0.6));
/** High enough that no limiter ever refuses a bench request; the limiter still runs on each. */
export const UNTHROTTLED = "1000000000";
export const BENCH_VARS = {
  RATE_LIMIT_REQUESTS: UNTHROTTLED,
  ANONYMOUS_RATE_LIMIT_REQUESTS: UNTHROTTLED,
  TOKEN_RATE_LIMIT_REQUESTS: UNTHROTTLED,
};
export const RESULTS_FILE = args.out;

export const progress = (message: string) =>
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}\n`);
export const started = performance.now();
export const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));
const version = (pkg: string) => (createRequire(import.meta.url)(`${pkg}/package.json`) as { version: string }).version;

export function machine(loadBefore: number[]) {
  const cpus = os.cpus();
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(", ");
  return [
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
    `- Node ${process.version}; workerd ${version("workerd")} (miniflare ${version("miniflare")}, wrangler ${version("wrangler")}); autocannon ${version("autocannon")}`,
    `- Load average (1, 5, 15 min) at start: ${load(loadBefore)}; at end: ${load(os.loadavg())}. Other processes on this machine compete for the same cores.`,
  ].join("\n");
}
