// The tools' tests, in Node rather than workerd: the typed client's helpers (clients/typescript)
// and the deploy scripts (scripts/deploy-*.ts), which read files and run commands.
// `npx vitest run --config vitest.tools.config.ts`. They are named *.spec.ts so that the worker's
// suite (vitest.config.ts, test/**/*.test.ts inside workerd) leaves them alone.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/tools/**/*.spec.ts"],
    environment: "node",
    testTimeout: 20_000,
  },
});
