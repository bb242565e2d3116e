import { readdirSync } from "node:fs";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
// With its extension: Vite warns about an extensionless import, which its native config loader (the future default) cannot load.
import { quietWorkerdLog } from "./test/support/quiet-runtime.ts";

/**
 * One config, six projects (docs/testing.md says what each holds and how to run one):
 *   domain    pure rules in Node (src/domain, src/lib, src/interchange): seconds
 *   fast      requests and answers inside workerd with real local D1, KV and R2: the files of a
 *             worker share one runtime, emptied between files (test/support/fresh-storage.ts)
 *   isolated  suites that need a runtime of their own inside workerd: queues and the cron, what an
 *             isolate keeps in memory, costs counted per call, LTI
 *   slow      the same, for the few that wait on real time or real volume (a minute of retries,
 *             5 000 deadlines, 20 000 regraded submissions): `npm test -- --project fast` skips them
 *   tools     the typed client's helpers and the deploy scripts, in Node
 *   e2e       black-box tests against `npm run dev`, after all the others
 */

/** Dependencies bundled once by Vite for workerd: one module each instead of hundreds (zod's locales, drizzle). */
const PREBUNDLED = [
  "zod",
  "zod/v3",
  "zod/v4",
  "zod/v4/core",
  "drizzle-orm",
  "drizzle-orm/d1",
  "drizzle-orm/sqlite-core",
  "jose",
  "fflate",
  "ulidx",
  "crc-32",
  "saxes",
  "fast-check",
  "standardwebhooks",
  "oauth4webapi",
];

/** Requests and answers: the files under these folders share a runtime per worker… */
const SHARED = ["test/routes/", "test/platform/", "test/security/", "test/interchange/accepted-by-api.test.ts"];
/**
 * …but these, which wait on queues or the cron (whose messages would outlive their file), read what
 * an isolate keeps in memory (rate-limit counters, the webhook subscriptions' view), or seed more
 * than a file's worth of rows, get a runtime each, like every other suite in workerd.
 */
const OWN_RUNTIME = [
  "test/routes/events/",
  "test/routes/imports/",
  "test/routes/regrade/",
  "test/routes/webhook-endpoints/",
  "test/routes/oauth/token-families.test.ts",
  "test/routes/quizzes/results-export.large.test.ts",
  "test/platform/rate-limit.test.ts",
];
/** Suites that take tens of seconds whatever the machine: real-time retries, queues working through volume. */
const SLOW = [
  "test/events/attempts.test.ts",
  "test/events/delivery.test.ts",
  "test/grading/deadlines.test.ts",
  "test/grading/regrade-chunks.test.ts",
  "test/routes/oauth/token-families.test.ts",
  "test/lti/passback.test.ts",
  "test/lti/roster.test.ts",
  "test/fuzz.test.ts",
];
/**
 * The slow suites start first: they mostly wait, so the others run beside them and the run ends
 * with the last of the quick files, not with a minute of retries started last. Otherwise vitest's
 * order (earlier failures, then the longest files it has timed, then the largest).
 */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const slow = (file: TestSpecification) => ([...SLOW, ...GROWTH].some((path) => file.moduleId.endsWith(path)) ? 0 : 1);
    return (await super.sort(files)).sort((a, b) => slow(a) - slow(b));
  }
}

/** Pure rules, in Node: no runtime to start. */
const NODE = ["test/domain/**/*.test.ts", "test/interchange/**/*.test.ts"];
/**
 * The readers' doubling tests (docs/security.md, "Parsing has a budget"): each reads hostile inputs
 * of 16 to 128 KiB several times over to compare their growth, a minute or two of CPU in all, so
 * they run in a Node project of their own that `npm test -- --project domain` leaves out.
 */
const GROWTH = [
  "test/interchange/linear-time.test.ts",
  "test/interchange/gift-linear.test.ts",
  "test/domain/content-linear.test.ts",
  "test/domain/image-format-linear.test.ts",
];

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
const shared = testFiles("test").filter(
  (file) => SHARED.some((prefix) => file.startsWith(prefix)) && !OWN_RUNTIME.some((prefix) => file.startsWith(prefix)),
);

export default defineConfig(async () => {
  quietWorkerdLog();
  const migrations = await readD1Migrations("drizzle");
  /** The worker under test in workerd: wrangler.toml's bindings with the tests' settings. */
  const workerd = () =>
    cloudflareTest(({ inject }) => ({
      main: "./src/index.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: migrations,
          // Suites make thousands of requests with one credential; the limiter's own tests
          // pass small limits per request (app.fetch with an env override).
          RATE_LIMIT_REQUESTS: "1000000",
          ANONYMOUS_RATE_LIMIT_REQUESTS: "1000000",
          TOKEN_RATE_LIMIT_REQUESTS: "1000000",
          // No request log lines: a test that wants them passes LOG_LEVEL: "info" in an env override.
          LOG_LEVEL: "warn",
          // Webhook deliveries: the receiver of test/support/webhook-receiver.ts, two short retries.
          WEBHOOK_RECEIVER_URL: inject("webhookReceiverUrl"),
          WEBHOOK_RETRY_DELAYS_SECONDS: "1,1",
          // Usage written a second behind, not 9 (the deployed default): a test that settles a
          // request's waitUntil work would wait out the flush. test/cost/usage.test.ts checks the default.
          USAGE_FLUSH_SECONDS: "1",
          // LTI: the loopback platform of test/lti-platform.ts, and a score's 8 attempts a second apart.
          LTI_PLATFORM_URL: inject("ltiPlatformUrl"),
          LTI_PASSBACK_RETRY_DELAYS_SECONDS: "1,1,1,1,1,1,1",
        },
      },
    }));
  const workerdTest = {
    // A loaded machine (two cores shared by the whole team) can take more than vitest's 5 s.
    testTimeout: 15_000,
    deps: { optimizer: { ssr: { enabled: true, include: PREBUNDLED } } },
    globalSetup: ["./test/support/webhook-receiver.ts", "./test/lti-platform.ts"],
    sequence: { groupOrder: 0 },
  };
  return {
    test: {
      // Vitest's default on this 2-core machine is one worker. Three: the slow suites mostly wait
      // (on retries, queues, the receiver), and a third runtime uses the cores while they do.
      maxWorkers: 3,
      sequence: { sequencer: SlowFirst },
      // A test is named in the output when it fails or takes over 10 s, not at vitest's 300 ms.
      slowTestThreshold: 10_000,
      // A passing test's console output is not printed; a failing test's is, with the failure.
      silent: "passed-only" as const,
      projects: [
        {
          test: {
            name: "domain",
            environment: "node",
            testTimeout: 15_000,
            include: NODE,
            exclude: [...configDefaults.exclude, ...shared, ...GROWTH],
            sequence: { groupOrder: 0 },
          },
        },
        {
          test: {
            name: "growth",
            environment: "node",
            testTimeout: 60_000,
            include: GROWTH,
            sequence: { groupOrder: 0 },
          },
        },
        {
          plugins: [workerd()],
          test: {
            ...workerdTest,
            name: "fast",
            include: shared,
            // The files of a worker share its runtime: the worker's modules load once, not once a file.
            isolate: false,
            setupFiles: ["./test/support/fresh-storage.ts"],
          },
        },
        {
          plugins: [workerd()],
          test: {
            ...workerdTest,
            name: "isolated",
            include: ["test/**/*.test.ts"],
            exclude: [...configDefaults.exclude, ...shared, ...SLOW, ...NODE, "test/tools/**", "test/e2e/**"],
            setupFiles: ["./test/support/apply-migrations.ts"],
          },
        },
        {
          plugins: [workerd()],
          test: {
            ...workerdTest,
            name: "slow",
            include: SLOW,
            setupFiles: ["./test/support/apply-migrations.ts"],
          },
        },
        {
          // The tools' tests, in Node: the typed client's helpers (clients/typescript) and the deploy
          // scripts (scripts/deploy-*.ts), which read files and run commands. Named *.spec.ts.
          test: {
            name: "tools",
            environment: "node",
            include: ["test/tools/**/*.spec.ts"],
            testTimeout: 20_000,
            sequence: { groupOrder: 0 },
          },
        },
        {
          // Black-box tests in Node against `npm run dev` (test/e2e/dev-server.ts), after the suites:
          // each file starts its own server, and its build rewrites dist/ and public/docs/vendor/,
          // which the suites' docs tests read. One file at a time, for the same reason.
          test: {
            name: "e2e",
            environment: "node",
            include: ["test/e2e/**/*.test.ts"],
            fileParallelism: false,
            testTimeout: 90_000,
            sequence: { groupOrder: 1 },
          },
        },
      ],
    },
  };
});
