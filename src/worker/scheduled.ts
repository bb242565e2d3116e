import { drizzle } from "drizzle-orm/d1";
import { sweepAssets } from "../authoring/assets";
import type { Database } from "../env";
import { sweepEvents } from "../events/sweep";
import { enqueueOverdue } from "../grading/deadlines";
import { sweepUploads } from "../imports/uploads";
import { sweepJobs } from "../jobs/jobs";
import { sweepLti } from "../lti/sweep";

/**
 * The cron (every minute, wrangler.toml [triggers]): overdue submissions to the queue to be graded,
 * the outbox swept and events past their retention dropped, stalled jobs handed over again and
 * finished ones dropped, imports' files their jobs left behind, forgotten passbacks and spent launch
 * nonces, and questions' images no question has referred to for a day.
 */
export async function runScheduled(env: Env): Promise<void> {
  const db = drizzle(env.DB) as Database;
  await enqueueOverdue(env, db);
  await sweepEvents(env, db);
  await sweepJobs(env, db);
  await sweepUploads(env, db);
  await sweepLti(env, db);
  await sweepAssets(env, db);
}
