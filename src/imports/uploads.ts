import { sql } from "drizzle-orm";
import { jobs } from "../db/schema";
import type { Database } from "../env";
import { logger } from "../lib/log";

/**
 * An import's file waits in R2 (binding UPLOADS) between the request that accepted it and the job
 * that reads it: under `imports/<job id>`, put before the job row exists and deleted once the job
 * has ended, succeeded or failed. The cron deletes what a job left behind (sweepUploads).
 */

const PREFIX = "imports/";

export const uploadKey = (jobId: string) => `${PREFIX}${jobId}`;

export async function storeUpload(env: Env, jobId: string, bytes: Uint8Array, mediaType: string): Promise<void> {
  await env.UPLOADS.put(uploadKey(jobId), bytes, { httpMetadata: { contentType: mediaType } });
}

/** The stored file, or undefined when it is gone (its job ended, or the sweep took it). */
export async function readUpload(env: Env, jobId: string): Promise<Uint8Array | undefined> {
  const object = await env.UPLOADS.get(uploadKey(jobId));
  return object ? new Uint8Array(await object.arrayBuffer()) : undefined;
}

/** Deletes the file of an ended job; a failure is left to the cron's sweep. */
export async function deleteUpload(env: Env, jobId: string): Promise<void> {
  try {
    await env.UPLOADS.delete(uploadKey(jobId));
  } catch (error) {
    logger(env).warn("upload not deleted; the cron will", { job: jobId, error: String(error) });
  }
}

/**
 * A request that stored a file and died before writing its job leaves a file no job will read:
 * older than this, a file without a queued or running job is deleted.
 */
const ORPHAN_AFTER_MS = 60 * 60_000;
/** Files looked at per run: one R2 list call. */
const SWEEP_PAGE = 1000;

/**
 * The cron's share of uploads: deletes the files whose job has ended (its own deletion failed) and,
 * after an hour, those without a job. Files of queued and running jobs stay.
 */
export async function sweepUploads(env: Env, db: Database, nowMs = Date.now()): Promise<number> {
  const listed = await env.UPLOADS.list({ prefix: PREFIX, limit: SWEEP_PAGE });
  if (listed.objects.length === 0) return 0;
  const ids = listed.objects.map((o) => o.key.slice(PREFIX.length));
  // One parameter for all the ids: D1 binds at most 100 per statement.
  const live = await db
    .select({ id: jobs.id, status: jobs.status })
    .from(jobs)
    .where(sql`${jobs.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
  const status = new Map(live.map((j) => [j.id, j.status]));
  const stale = listed.objects.filter((o) => {
    const s = status.get(o.key.slice(PREFIX.length));
    if (s === "queued" || s === "running") return false;
    return s !== undefined || nowMs - o.uploaded.getTime() > ORPHAN_AFTER_MS;
  });
  if (stale.length > 0) await env.UPLOADS.delete(stale.map((o) => o.key));
  return stale.length;
}
