import { logger } from "../lib/log";

/**
 * What travels on the events queue: ids only (the queue holds no event data, no secret).
 * `event`: fan a recorded event out to the endpoints subscribed to its type.
 * `delivery`: one attempt of one event to one endpoint, in the event's own delivery (`redelivery`
 * 0 or absent) or its n-th redelivery; `not_before` (ms) when the wait before it is longer than
 * the queue's longest delay (12 h), so it is waited for in hops.
 * `deadline`: open submissions past their deadline, to grade (the cron finds them).
 * `revoked_tokens`: a client's revoked access tokens still to delete from KV (a revocation larger
 * than one invocation may delete).
 */
export type EventsMessage =
  | { kind: "event"; event_id: string }
  | { kind: "delivery"; event_id: string; endpoint_id: string; redelivery?: number; attempt: number; not_before?: number }
  | { kind: "deadline"; submission_ids: string[] }
  | { kind: "revoked_tokens"; client_id: string }
  | JobMessage;

/** `job`: the next steps of a job (JOBS_QUEUE); each delivery works from the job's stored cursor. */
export interface JobMessage {
  kind: "job";
  job_id: string;
}

/** A delivery whose last attempt failed, as the dead-letter queue receives it. */
export interface DeadLetter {
  kind: "dead";
  event_id: string;
  endpoint_id: string;
  redelivery: number;
  attempts: number;
}

/** Submissions per deadline message: a consumer batch (≤ 10 messages) grades at most 100. */
export const DEADLINE_CHUNK = 10;

/** The longest delay a queue message can be given. */
export const MAX_QUEUE_DELAY_SECONDS = 12 * 3600;
/** Messages per sendBatch call, the platform's maximum. */
const SEND_BATCH_SIZE = 100;

export async function sendAll(queue: Queue, messages: EventsMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += SEND_BATCH_SIZE) {
    await queue.sendBatch(messages.slice(i, i + SEND_BATCH_SIZE).map((body) => ({ body, contentType: "json" as const })));
  }
}

/**
 * Hands the events a request recorded to the queue. Runs after the response (waitUntil), so the
 * caller never waits for it; if it fails, the sweep (cron) hands them over within minutes.
 */
export async function enqueueEvents(env: Env, ids: string[]): Promise<void> {
  try {
    await sendAll(
      env.EVENTS_QUEUE,
      ids.map((id) => ({ kind: "event", event_id: id })),
    );
  } catch (error) {
    logger(env).warn("events not queued; the sweep will", { events: ids.length, error: String(error) });
  }
}
