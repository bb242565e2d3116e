import { drizzle } from "drizzle-orm/d1";
import { takeRecordedEvents } from "../db/outbox";
import type { Database } from "../env";
import { logger } from "../lib/log";
import { deliver, fanOut } from "./deliver";
import type { DeadLetter, EventsMessage } from "./messages";
import { dispatchRecorded } from "./subscribers";

/**
 * The queue handler of this worker. Each message is handled on its own and acknowledged on its
 * own: a throw retries that message alone (a batch-wide throw would redo the others' deliveries
 * too), and after max_retries the platform moves it to the dead-letter queue. The messages of a
 * batch run concurrently, so a receiver that hangs for its 10 s holds up no other.
 */
/** Work the queues carry for other layers: grading overdue submissions, revocations, running jobs (routes/). */
export interface QueueWork {
  deadline(db: Database, submissionIds: string[]): Promise<void>;
  revokedTokens(env: Env, db: Database, clientId: string): Promise<void>;
  job(env: Env, db: Database, jobId: string): Promise<void>;
  jobFailed(db: Database, jobId: string): Promise<void>;
}

export async function handleQueue(batch: MessageBatch<unknown>, env: Env, work: QueueWork): Promise<void> {
  const db = drizzle(env.DB) as Database;
  if (batch.queue.endsWith("-dlq")) return deadLetters(batch, env, db, work);
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const body = message.body as EventsMessage;
        if (body.kind === "event") await fanOut(env, db, body.event_id);
        else if (body.kind === "delivery") await deliver(env, db, body);
        else if (body.kind === "deadline") await work.deadline(db, body.submission_ids);
        else if (body.kind === "revoked_tokens") await work.revokedTokens(env, db, body.client_id);
        else if (body.kind === "job") await work.job(env, db, body.job_id);
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

/**
 * The dead-letter queue: deliveries whose last attempt failed (their record says so already:
 * logged as information), and messages the consumer failed on max_retries times (a warning for
 * the operators). A job's fails the job.
 */
async function deadLetters(batch: MessageBatch<unknown>, env: Env, db: Database, work: QueueWork): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body as DeadLetter | EventsMessage;
    if (body.kind === "dead") logger(env).info("delivery failed its last attempt", { queue: batch.queue, ...body });
    else logger(env).warn("dead letter", { queue: batch.queue, ...body });
    // A job whose step failed on every retry: failed, with the quiz's figures left exact.
    if (body.kind === "job") await work.jobFailed(db, body.job_id);
    message.ack();
  }
}
