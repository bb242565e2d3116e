/**
 * Every message the worker's queues carry, in one union: ids only (a queue holds no event data,
 * no score, no secret), each kind read by its consumer from D1 as it is when the message arrives.
 *
 * - `event`: fan a recorded event out to the endpoints subscribed to its type.
 * - `delivery`: one attempt of one event to one endpoint, in the event's own delivery
 *   (`redelivery` 0 or absent) or its n-th redelivery.
 * - `deadline`: open submissions past their deadline, to grade (the cron finds them).
 * - `revoked_tokens`: a client's revoked access tokens still to delete from KV (a revocation
 *   larger than one invocation may delete).
 * - `job`: the next steps of a job; each delivery works from the job's stored cursor.
 * - `lti_passback`: a ledger row to send; the worker sends the row's state as it is then, never a
 *   state the message carried, so the order of delivery cannot put an older score after a newer one.
 * - `dead`: a webhook delivery whose last attempt failed, as the dead-letter queue receives it.
 *
 * Any message may carry `not_before` (ms): it was given a longer wait than a queue can hold (12 h),
 * so it is waited for in hops (send.ts, consume.ts).
 */
export type QueueMessage = (
  | { kind: "event"; event_id: string }
  | { kind: "delivery"; event_id: string; endpoint_id: string; redelivery?: number; attempt: number }
  | { kind: "deadline"; submission_ids: string[] }
  | { kind: "revoked_tokens"; client_id: string }
  | { kind: "job"; job_id: string }
  | { kind: "lti_passback"; passback_id: string }
  | { kind: "dead"; event_id: string; endpoint_id: string; redelivery: number; attempts: number }
) & { not_before?: number };

export type MessageKind = QueueMessage["kind"];
export type MessageOf<K extends MessageKind> = Extract<QueueMessage, { kind: K }>;

/** The queue each kind travels on: the binding its sender uses (wrangler.toml [[queues.producers]]). */
export const QUEUE_OF = {
  event: "EVENTS_QUEUE",
  delivery: "EVENTS_QUEUE",
  deadline: "EVENTS_QUEUE",
  revoked_tokens: "EVENTS_QUEUE",
  job: "JOBS_QUEUE",
  lti_passback: "LTI_QUEUE",
  dead: "EVENTS_DLQ",
} as const satisfies Record<MessageKind, keyof Env>;

/** The queue bindings a sender needs: those of the kinds it sends. */
export type QueueBindings<K extends MessageKind = MessageKind> = Pick<Env, (typeof QUEUE_OF)[K]>;

/** Submissions per deadline message: a consumer batch (≤ 10 messages) grades at most 100. */
export const DEADLINE_CHUNK = 10;
