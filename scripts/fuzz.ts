// npm run fuzz -- [--runs N] [--seed S]: the OpenAPI-driven fuzz suite (test/fuzz.test.ts) with a
// larger budget than CI's. The generators need the workerd environment (real local D1 and KV), so
// this runs that one test file through vitest, handing the budget and the seed in with vitest's
// provide/inject, and prints the summary: requests sent, status histogram, failing answers with the
// request that reproduces each.
import { parseArgs } from "node:util";
import type { TestUserConfig } from "vitest/node";
import { startVitest } from "vitest/node";

const { values } = parseArgs({
  options: { runs: { type: "string" }, seed: { type: "string" }, verbose: { type: "boolean" } },
});
const runs = Number(values.runs ?? 20_000);
const seed = Number(values.seed ?? 20261122);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  process.stderr.write("usage: npm run fuzz -- [--runs N] [--seed S] [--verbose]\n");
  process.exit(2);
}

const SUMMARY_MARK = "FUZZ_SUMMARY_JSON ";
let summaryJson: string | undefined;
const started = Date.now();

process.stdout.write(`fuzz: ${runs} requests, seed ${seed} (test/fuzz.test.ts in workerd)\n`);
const config: TestUserConfig = {
  watch: false,
  provide: { fuzzRuns: runs, fuzzSeed: seed },
  reporters: [values.verbose ? "default" : "dot"],
  // The config keeps a passing test's console output back; the summary is a passing test's.
  silent: false,
  // The summary comes back as one console line; the worker's own output only with --verbose.
  onConsoleLog(log) {
    for (const line of log.split("\n")) if (line.startsWith(SUMMARY_MARK)) summaryJson = line.slice(SUMMARY_MARK.length);
    return values.verbose && !log.startsWith(SUMMARY_MARK) ? undefined : false;
  },
};
const vitest = await startVitest("test", ["test/fuzz.test.ts"], config);
const failedTests = vitest?.state.getCountOfFailedTests() ?? 1;
await vitest?.close();

const wall = ((Date.now() - started) / 1000).toFixed(1);
if (!summaryJson) {
  process.stdout.write(`\nno fuzz summary came back (the run failed before it ended; ${wall} s): rerun with --verbose\n`);
  process.exit(1);
}
const { formatSummary } = await import("../test/fuzz/format");
process.stdout.write(`\n${formatSummary(JSON.parse(summaryJson))}\nwall time (vitest start-up included): ${wall} s\n`);
process.exit(failedTests > 0 ? 1 : 0);
