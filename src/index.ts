import { drizzle } from "drizzle-orm/d1";
import { app } from "./app";
import { sweepRevokedTokens } from "./auth/oauth-revocation";
import type { Database } from "./env";
import { handleQueue } from "./events/consumer";
import { sweepEvents } from "./events/sweep";
import { sweepJobs } from "./routes/jobs";
import { failJob, runRegradeJob } from "./routes/regrade";
import { enqueueOverdue, gradeOverdue } from "./routes/submissions";

export type { AppType } from "./app";

/**
 * The worker: HTTP requests through the app; the events queue (fan-out, delivery, dead letters,
 * grading at deadlines) and the jobs queue (regrades); and the cron (every minute: overdue submissions to the queue, the
 * outbox sweep and retention).
 */
export default {
  fetch: app.fetch,
  queue: (batch, env, _ctx) =>
    handleQueue(batch, env, {
      deadline: gradeOverdue,
      revokedTokens: (env, db, clientId) => sweepRevokedTokens(db, env, clientId),
      job: runRegradeJob,
      jobFailed: (db, jobId) => failJob(db, jobId, "A step of the job failed on every retry."),
    }),
  scheduled: async (_controller, env, _ctx) => {
    const db = drizzle(env.DB) as Database;
    await enqueueOverdue(env, db);
    await sweepEvents(env, db);
    await sweepJobs(env, db);
  },
} satisfies ExportedHandler<Env>;
