import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { sweepRevokedTokens } from "../auth/oauth-revocation";
import { WakeUps } from "../db/after-commit";
import { jobs } from "../db/schema";
import type { Database } from "../env";
import { deliver, fanOut } from "../events/deliver";
import { gradeOverdue } from "../grading/deadlines";
import { failJob, runRegradeJob } from "../grading/regrade";
import { failImport, runImportJob } from "../imports/run";
import { logger } from "../lib/log";
import { processPassback } from "../lti/passback";
import { runResyncJob } from "../lti/resync";
import { failRoster, runRosterJob } from "../lti/roster";
import { consume, isDeadLetterBatch, type Routes } from "../queue/consume";
import { sendWakeUps } from "./after-commit";

/**
 * The worker's queue consumer, for every queue it consumes (the events, jobs and LTI passback
 * queues, and the dead-letter queue): the one loop of src/queue/consume.ts, each message routed
 * by its kind to the process that owns it.
 */
export async function handleQueue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = drizzle(env.DB) as Database;
  const wakeUps = new WakeUps();
  await consume(batch, env, isDeadLetterBatch(batch) ? deadLetters(env, db, batch.queue) : live(env, db, wakeUps));
  // What the batch's work committed wakes (submission.graded and ledger rows at deadlines,
  // lti.passback.failed, …) goes to the queues as a request's does, once, after the batch.
  await sendWakeUps(env, db, wakeUps.take());
}

/** Live messages: fan-out and webhook delivery, grading at deadlines, large revocations, jobs, passbacks. */
const live = (env: Env, db: Database, wakeUps: WakeUps): Routes => ({
  event: (m) => fanOut(env, db, m.event_id),
  delivery: (m) => deliver(env, db, wakeUps, m),
  deadline: (m) => gradeOverdue(db, wakeUps, m.submission_ids),
  revoked_tokens: (m) => sweepRevokedTokens(db, env, m.client_id),
  job: (m) => runJob(env, db, wakeUps, m.job_id),
  lti_passback: (m) => processPassback(env, db, wakeUps, m),
});

/** One delivery of a job's message: the steps of its type, from the job's stored cursor (an import's from its row, read here once). */
async function runJob(env: Env, db: Database, wakeUps: WakeUps, jobId: string): Promise<void> {
  const [job] = await db.select().from(jobs).where(eq(jobs.id, jobId));
  if (job?.type === "lti_resync") await runResyncJob(db, wakeUps, jobId);
  else if (job?.type === "regrade") await runRegradeJob(env, db, wakeUps, jobId);
  else if (job?.type === "import") await runImportJob(env, db, wakeUps, job);
  else if (job?.type === "lti_roster") await runRosterJob(env, db, wakeUps, jobId);
}

/**
 * The dead-letter queue: deliveries whose last attempt failed (their record says so already:
 * logged as information), and messages the consumer failed on max_retries times (a warning for
 * the operators). A job's fails the job, with the quiz's figures left exact.
 */
function deadLetters(env: Env, db: Database, queue: string): Routes {
  const warn = async (body: object) => logger(env).warn("dead letter", { queue, ...body });
  return {
    dead: async (m) => logger(env).info("delivery failed its last attempt", { queue, ...m }),
    job: async (m) => {
      await warn(m);
      await failDeadJob(env, db, m.job_id);
    },
    event: warn,
    delivery: warn,
    deadline: warn,
    revoked_tokens: warn,
    lti_passback: warn,
  };
}

/** A job whose step failed on every retry: failed, an import with its code and its file deleted, a roster sync with its rows. */
async function failDeadJob(env: Env, db: Database, jobId: string): Promise<void> {
  const why = "A step of the job failed on every retry.";
  const [job] = await db.select({ type: jobs.type }).from(jobs).where(eq(jobs.id, jobId));
  if (job?.type === "import") await failImport(env, db, jobId, "internal_error", why);
  else if (job?.type === "lti_roster") await failRoster(db, jobId, why);
  else await failJob(db, jobId, why);
}
