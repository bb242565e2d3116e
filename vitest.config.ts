import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("drizzle");
  return {
    test: {
      projects: [
        {
          // The suites, inside workerd with real local D1, KV and queues (`npx vitest run --project workers`).
          plugins: [
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
                  // Webhook deliveries: the receiver of test/webhook-receiver.ts, two short retries.
                  WEBHOOK_RECEIVER_URL: inject("webhookReceiverUrl"),
                  WEBHOOK_RETRY_DELAYS_SECONDS: "1,1",
                  // Usage written a second behind, not 9 (the deployed default): a test that settles a
                  // request's waitUntil work would wait out the flush. test/usage.test.ts checks the default.
                  USAGE_FLUSH_SECONDS: "1",
                  // LTI: the loopback platform of test/lti-platform.ts, and a score's 8 attempts a second apart.
                  LTI_PLATFORM_URL: inject("ltiPlatformUrl"),
                  LTI_PASSBACK_RETRY_DELAYS_SECONDS: "1,1,1,1,1,1,1",
                },
              },
            })),
          ],
          test: {
            name: "workers",
            include: ["test/**/*.test.ts"],
            exclude: [...configDefaults.exclude, "test/e2e/**"],
            setupFiles: ["./test/apply-migrations.ts"],
            globalSetup: ["./test/webhook-receiver.ts", "./test/lti-platform.ts"],
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
