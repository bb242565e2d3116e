import { MAX_QUEUE_DELAY_SECONDS } from "../events/messages";
import { logger } from "../lib/log";

/**
 * What travels on the LTI queue: ledger row ids only. A message wakes its row up; the worker
 * sends the row's state as it is then, never a state the message carried, so the order in which
 * the queue delivers cannot put an older score after a newer one. `not_before` (ms): the wait was
 * longer than the queue's longest delay, so it is waited for in hops.
 */
export interface PassbackMessage {
  kind: "lti_passback";
  passback_id: string;
  not_before?: number;
}

/** Messages per sendBatch call, the platform's maximum. */
const SEND_BATCH_SIZE = 100;

/**
 * Wakes ledger rows up after `delaySeconds`. A failure is logged, not thrown: the rows stay
 * pending, and the cron hands them to the queue again (sweep.ts).
 */
export async function wakePassbacks(env: Env, ids: readonly string[], delaySeconds = 0): Promise<void> {
  const notBefore = delaySeconds > MAX_QUEUE_DELAY_SECONDS ? Date.now() + delaySeconds * 1000 : undefined;
  const delay = Math.max(0, Math.min(Math.ceil(delaySeconds), MAX_QUEUE_DELAY_SECONDS));
  try {
    for (let i = 0; i < ids.length; i += SEND_BATCH_SIZE) {
      await env.LTI_QUEUE.sendBatch(
        ids.slice(i, i + SEND_BATCH_SIZE).map((id) => {
          const body: PassbackMessage = {
            kind: "lti_passback",
            passback_id: id,
            ...(notBefore ? { not_before: notBefore } : {}),
          };
          return { body, contentType: "json" as const, delaySeconds: delay };
        }),
      );
    }
  } catch (error) {
    logger(env).warn("passbacks not queued; the cron will", { passbacks: ids.length, error: String(error) });
  }
}
