import { drizzle } from "drizzle-orm/d1";
import { app } from "./app";
import type { Database } from "./env";
import { handleQueue } from "./events/consumer";
import { sweepEvents } from "./events/sweep";

export type { AppType } from "./app";

/**
 * The worker: HTTP requests through the app; the events queue (fan-out, delivery, dead letters);
 * and the cron (every minute: the outbox sweep and retention).
 */
export default {
  fetch: app.fetch,
  queue: (batch, env) => handleQueue(batch, env),
  scheduled: async (_controller, env, _ctx) => {
    await sweepEvents(env, drizzle(env.DB) as Database);
  },
} satisfies ExportedHandler<Env>;
