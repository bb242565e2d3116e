import { drizzle } from "drizzle-orm/d1";
import { takeRecordedEvents } from "../db/outbox";
import type { Database } from "../env";
import { dispatchRecorded } from "../events/subscribers";
import { logger } from "../lib/log";
import type { PassbackMessage } from "./messages";
import { processPassback } from "./passback";

/** The LTI queue, whichever environment's: quiz-api-lti-passbacks, quiz-api-staging-lti-passbacks, … */
export const isLtiQueue = (queue: string) => queue.endsWith("-lti-passbacks");

/**
 * The LTI queue's consumer: each message on its own, acknowledged on its own (a throw retries
 * that message alone), all of a batch at once — a batch holds at most 10 and the queue runs one
 * batch at a time, and the lease of each row holds the platform to 10 in flight in any case.
 */
export async function handleLtiQueue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = drizzle(env.DB) as Database;
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const body = message.body as PassbackMessage;
        if (body.kind === "lti_passback") await processPassback(env, db, body);
        message.ack();
      } catch (error) {
        logger(env).error("passback message failed; retried", {
          id: message.id,
          attempts: message.attempts,
          error: String(error),
        });
        message.retry();
      }
    }),
  );
  // lti.passback.failed events the batch recorded go to the events queue as a request's do.
  await dispatchRecorded(env, db, takeRecordedEvents(db));
}
