import { logger } from "../lib/log";
import type { MessageKind, MessageOf, QueueBindings, QueueMessage } from "./messages";
import { send } from "./send";

/** What the worker does with each kind of message; a kind it does not expect is acknowledged and left. */
export type Routes = { [K in MessageKind]?: (message: MessageOf<K>) => Promise<void> };

/** Dead-letter queues are named `<queue>-dlq` (wrangler.toml): what arrives there is a message that ran out of attempts. */
export const isDeadLetterBatch = (batch: MessageBatch<unknown>) => batch.queue.endsWith("-dlq");

/**
 * The one consumer loop, for every queue: each message routed by its kind, handled on its own and
 * acknowledged on its own — a throw retries that message alone (a batch-wide throw would redo the
 * others' work too), and after max_retries the platform moves it to the dead-letter queue. The
 * messages of a batch run concurrently, so one that hangs (a receiver's 10 s) holds up no other.
 * A live message whose `not_before` is still ahead is sent on for the rest of its wait instead (a
 * dead letter is only recorded, never sent on).
 */
export async function consume(batch: MessageBatch<unknown>, env: QueueBindings & Partial<Env>, routes: Routes): Promise<void> {
  const hops = !isDeadLetterBatch(batch);
  await Promise.all(
    batch.messages.map(async (message) => {
      const body = message.body as QueueMessage;
      try {
        if (hops && body.not_before !== undefined && Date.now() < body.not_before)
          await send(env, [body], { delaySeconds: (body.not_before - Date.now()) / 1000 });
        else await (routes[body.kind] as ((m: QueueMessage) => Promise<void>) | undefined)?.(body);
        message.ack();
      } catch (error) {
        logger(env).error("queue message failed; retried", {
          id: message.id,
          kind: body.kind,
          attempts: message.attempts,
          error: String(error),
        });
        message.retry();
      }
    }),
  );
}
