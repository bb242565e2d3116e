import { logger } from "../lib/log";
import { type MessageKind, type MessageOf, QUEUE_OF, type QueueBindings } from "./messages";

/** The longest delay a queue message can be given. */
const MAX_QUEUE_DELAY_SECONDS = 12 * 3600;
/** Messages per sendBatch call, the platform's maximum. */
const SEND_BATCH_SIZE = 100;

/**
 * The one way a message gets onto a queue: each to the queue of its kind, in batches of the
 * platform's maximum, after `delaySeconds`. A wait longer than a queue holds (12 h) is sent as
 * the longest delay with `not_before`, and the consumer sends it on again until then (consume.ts).
 * Throws when the queue refuses: a caller inside a consumer is retried, one that can lose the
 * message to a sweep uses sendOrLeave.
 */
export async function send<K extends MessageKind>(
  env: QueueBindings<K>,
  messages: readonly MessageOf<K>[],
  options: { delaySeconds?: number } = {},
): Promise<void> {
  const wait = Math.max(0, options.delaySeconds ?? 0);
  const notBefore = wait > MAX_QUEUE_DELAY_SECONDS ? Date.now() + wait * 1000 : undefined;
  const delaySeconds = Math.min(Math.ceil(wait), MAX_QUEUE_DELAY_SECONDS);
  const byQueue = new Map<(typeof QUEUE_OF)[K], MessageOf<K>[]>();
  for (const message of messages) {
    const { not_before: _spent, ...rest } = message;
    const body = (notBefore === undefined ? rest : { ...rest, not_before: notBefore }) as MessageOf<K>;
    const binding = QUEUE_OF[message.kind as K];
    byQueue.set(binding, [...(byQueue.get(binding) ?? []), body]);
  }
  for (const [binding, bodies] of byQueue) {
    const queue = env[binding] as Queue;
    for (let i = 0; i < bodies.length; i += SEND_BATCH_SIZE)
      await queue.sendBatch(
        bodies.slice(i, i + SEND_BATCH_SIZE).map((body) => ({
          body,
          contentType: "json" as const,
          ...(delaySeconds > 0 ? { delaySeconds } : {}),
        })),
      );
  }
}

/**
 * send, for messages a sweep hands over again if they are lost (events, jobs, passbacks): a
 * refusal is logged as `what` ("events not queued; the sweep will"), never thrown.
 */
export async function sendOrLeave<K extends MessageKind>(
  env: QueueBindings<K> & Partial<Env>,
  messages: readonly MessageOf<K>[],
  what: string,
  options: { delaySeconds?: number } = {},
): Promise<void> {
  if (messages.length === 0) return;
  try {
    await send(env, messages, options);
  } catch (error) {
    logger(env).warn(what, { messages: messages.length, error: String(error) });
  }
}
