import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { sweepRevokedTokens } from "../auth/oauth-revocation";
import { takeRecordedEvents } from "../db/outbox";
import { jobs } from "../db/schema";
import type { Database } from "../env";
import { deliver, fanOut } from "../events/deliver";
import type { DeadLetter, EventsMessage } from "../events/messages";
import { dispatchRecorded } from "../events/subscribers";
import { gradeOverdue } from "../grading/deadlines";
import { failJob, runRegradeJob } from "../grading/regrade";
import { failImport, runImportJob } from "../imports/run";
import { logger } from "../lib/log";
import { handleLtiQueue, isLtiQueue } from "../lti/consumer";
import { runResyncJob } from "../lti/resync";

/**
 * The worker's queue consumer, for every queue this worker consumes: the events queue (fan-out
 * and webhook delivery, grading at deadlines, large revocations), the jobs queue (a job's next
 * steps, by the job's type), the LTI passback queue, and the dead-letter queue.
 *
 * Each message is handled on its own and acknowledged on its own: a throw retries that message
 * alone (a batch-wide throw would redo the others' work too), and after max_retries the platform
 * moves it to the dead-letter queue. The messages of a batch run concurrently, so a receiver that
 * hangs for its 10 s holds up no other.
 */
export async function handleQueue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  if (isLtiQueue(batch.queue)) return handleLtiQueue(batch, env);
  const db = drizzle(env.DB) as Database;
  if (batch.queue.endsWith("-dlq")) return deadLetters(batch, env, db);
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        await handleMessage(env, db, message.body as EventsMessage);
        message.ack();
      } catch (error) {
        logger(env).error("queue message failed; retried", {
          id: message.id,
          attempts: message.attempts,
          error: String(error),
        });
        message.retry();
      }
    }),
  );
  // Events the batch's work recorded (submission.graded at deadlines) go to the queue as a
  // request's do; the sweep hands over any this misses.
  await dispatchRecorded(env, db, takeRecordedEvents(db));
}

async function handleMessage(env: Env, db: Database, body: EventsMessage): Promise<void> {
  switch (body.kind) {
    case "event":
      return fanOut(env, db, body.event_id);
    case "delivery":
      return deliver(env, db, body);
    case "deadline":
      return gradeOverdue(env, db, body.submission_ids);
    case "revoked_tokens":
      return sweepRevokedTokens(db, env, body.client_id);
    case "job":
      return runJob(env, db, body.job_id);
  }
}

/** One delivery of a job's message: the steps of its type, from the job's stored cursor. */
async function runJob(env: Env, db: Database, jobId: string): Promise<void> {
  const [job] = await db.select({ type: jobs.type }).from(jobs).where(eq(jobs.id, jobId));
  if (job?.type === "lti_resync") await runResyncJob(env, db, jobId);
  else if (job?.type === "regrade") await runRegradeJob(env, db, jobId);
  else if (job?.type === "import") await runImportJob(env, db, jobId);
}

/**
 * The dead-letter queue: deliveries whose last attempt failed (their record says so already:
 * logged as information), and messages the consumer failed on max_retries times (a warning for
 * the operators). A job's fails the job, with the quiz's figures left exact.
 */
async function deadLetters(batch: MessageBatch<unknown>, env: Env, db: Database): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body as DeadLetter | EventsMessage;
    if (body.kind === "dead") logger(env).info("delivery failed its last attempt", { queue: batch.queue, ...body });
    else logger(env).warn("dead letter", { queue: batch.queue, ...body });
    if (body.kind === "job") await failDeadJob(env, db, body.job_id);
    message.ack();
  }
}

/** A job whose step failed on every retry: failed, an import with its code and its file deleted. */
async function failDeadJob(env: Env, db: Database, jobId: string): Promise<void> {
  const why = "A step of the job failed on every retry.";
  const [job] = await db.select({ type: jobs.type }).from(jobs).where(eq(jobs.id, jobId));
  if (job?.type === "import") await failImport(env, db, jobId, "internal_error", why);
  else await failJob(db, jobId, why);
}
