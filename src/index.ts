import { drizzle } from "drizzle-orm/d1";
import { app } from "./app";
import type { Database } from "./env";
import { handleQueue } from "./events/consumer";
import { sweepEvents } from "./events/sweep";
import { enqueueOverdue, gradeOverdue } from "./routes/submissions";

export type { AppType } from "./app";

/**
 * The worker: HTTP requests through the app; the events queue (fan-out, delivery, dead letters,
 * grading at deadlines); and the cron (every minute: overdue submissions to the queue, the
 * outbox sweep and retention).
 */
export default {
  fetch: app.fetch,
  queue: (batch, env, _ctx) => handleQueue(batch, env, { deadline: gradeOverdue }),
  scheduled: async (_controller, env, _ctx) => {
    const db = drizzle(env.DB) as Database;
    await enqueueOverdue(env, db);
    await sweepEvents(env, db);
  },
} satisfies ExportedHandler<Env>;
