import { app } from "./app";
import { handleQueue } from "./worker/queue";
import { runScheduled } from "./worker/scheduled";
import { wireProcesses } from "./worker/wiring";

export type { AppType } from "./app";

wireProcesses();

/** The worker: HTTP requests through the app, every queue's messages, and the cron. */
export default {
  fetch: app.fetch,
  queue: (batch, env, _ctx) => handleQueue(batch, env),
  scheduled: (_controller, env, _ctx) => runScheduled(env),
} satisfies ExportedHandler<Env>;
