import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("drizzle");
  return {
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
          },
        },
      })),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      setupFiles: ["./test/apply-migrations.ts"],
      globalSetup: ["./test/webhook-receiver.ts"],
    },
  };
});
