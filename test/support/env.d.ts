import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** The webhook receiver of test/webhook-receiver.ts, http://127.0.0.1:<port>. */
      WEBHOOK_RECEIVER_URL: string;
    }
  }
}
