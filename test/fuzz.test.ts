import { env } from "cloudflare:workers";
import { afterAll, describe, expect, inject, it } from "vitest";
import { formatSummary, runFuzz } from "./fuzz/run";

/**
 * Fuzzing driven by the OpenAPI document (test/fuzz/): for every operation, fast-check
 * generates valid requests and near misses, and every answer is checked against docs/api.md.
 * In CI: a fixed seed and budget. `npm run fuzz -- --runs N [--seed S]` runs a larger one
 * (scripts/fuzz.ts passes them in with vitest's provide/inject).
 */
declare module "vitest" {
  export interface ProvidedContext {
    fuzzRuns?: number;
    fuzzSeed?: number;
  }
}

const RUNS = inject("fuzzRuns") ?? 2400;
const SEED = inject("fuzzSeed") ?? 20261122;
/** About 25 ms a request at worst on the CI machine, plus seeding. */
const TIMEOUT_MS = 60_000 + RUNS * 25;

describe("the API under fuzzing (OpenAPI-driven)", () => {
  // The jobs the fuzzer started (imports, regrades, LTI resyncs) run on the jobs queue after their
  // requests answered: the runtime stays up until they have ended, so that none is cut off
  // half-way (loading a module) when the file's runtime closes.
  afterAll(async () => {
    for (let waited = 0; waited < 30_000; waited += 250) {
      const open = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')").first<{
        n: number;
      }>();
      if ((open?.n ?? 0) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 35_000);

  it(`answers ${RUNS} generated requests (seed ${SEED}) as the contract says`, { timeout: TIMEOUT_MS }, async () => {
    // Every request writes a log line; thousands of them would bury the summary.
    const log = console.log;
    console.log = (...args: unknown[]) => {
      if (typeof args[0] === "string" && args[0].startsWith('{"level":"info","message":"request"')) return;
      log(...args);
    };
    let summary;
    try {
      summary = await runFuzz({ runs: RUNS, seed: SEED });
    } finally {
      console.log = log;
    }
    console.log(formatSummary(summary));
    // For scripts/fuzz.ts, which prints the summary itself.
    if (inject("fuzzRuns") !== undefined) console.log(`FUZZ_SUMMARY_JSON ${JSON.stringify(summary)}`);
    expect(summary.sent).toBeGreaterThanOrEqual(Math.min(RUNS, 2000));
    expect(summary.failureCount, "failing answers (see the summary above)").toBe(0);
  });
});
