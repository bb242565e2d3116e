import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import type { QueueMessage } from "../../src/queue/messages";
import { send } from "../../src/queue/send";

/**
 * The queue module (src/queue/): one send that picks each message's queue by its kind and waits
 * longer than a queue holds (12 h) in hops, and one consumer loop that sends a hop on instead of
 * handling it — but never a dead letter's.
 */

const TWELVE_HOURS = 12 * 3600;

/** A queue that keeps what it is sent, with each message's delay. */
function keeping() {
  const sent: { body: QueueMessage; delaySeconds: number | undefined }[] = [];
  const queue = {
    send: async (body: QueueMessage, options?: QueueSendOptions) => {
      sent.push({ body, delaySeconds: options?.delaySeconds });
    },
    sendBatch: async (messages: MessageSendRequest<QueueMessage>[]) => {
      sent.push(...messages.map((m) => ({ body: m.body, delaySeconds: m.delaySeconds })));
    },
  } as unknown as Queue;
  return { queue, sent };
}

function queues() {
  const [events, jobs, lti, dead] = [keeping(), keeping(), keeping(), keeping()];
  return {
    env: { ...env, EVENTS_QUEUE: events.queue, JOBS_QUEUE: jobs.queue, LTI_QUEUE: lti.queue, EVENTS_DLQ: dead.queue },
    events: events.sent,
    jobs: jobs.sent,
    lti: lti.sent,
    dead: dead.sent,
  };
}

async function consume(runEnv: Env, queue: string, bodies: QueueMessage[]) {
  const batch = createMessageBatch(
    queue,
    bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, runEnv, ctx);
  return getQueueResult(batch, ctx);
}

describe("send", () => {
  it("sends each message to the queue of its kind, with its delay", async () => {
    const q = queues();
    await send(
      q.env,
      [
        { kind: "event", event_id: "evt_1" },
        { kind: "job", job_id: "job_1" },
        { kind: "lti_passback", passback_id: "lpb_1" },
        { kind: "dead", event_id: "evt_1", endpoint_id: "whe_1", redelivery: 0, attempts: 3 },
      ],
      { delaySeconds: 30 },
    );
    expect(q.events).toEqual([{ body: { kind: "event", event_id: "evt_1" }, delaySeconds: 30 }]);
    expect(q.jobs.map((m) => m.body)).toEqual([{ kind: "job", job_id: "job_1" }]);
    expect(q.lti.map((m) => m.body)).toEqual([{ kind: "lti_passback", passback_id: "lpb_1" }]);
    expect(q.dead.map((m) => m.body.kind)).toEqual(["dead"]);
  });

  it("a wait longer than 12 h goes as the longest delay, with not_before", async () => {
    const q = queues();
    const before = Date.now();
    await send(q.env, [{ kind: "lti_passback", passback_id: "lpb_1" }], { delaySeconds: 20 * 3600 });
    const [sent] = q.lti;
    expect(sent?.delaySeconds).toBe(TWELVE_HOURS);
    expect(sent?.body.not_before).toBeGreaterThanOrEqual(before + 20 * 3600_000);
    expect(sent?.body.not_before).toBeLessThanOrEqual(Date.now() + 20 * 3600_000);
  });
});

describe("the consumer loop", () => {
  it("sends a message whose not_before is still ahead on for the rest of its wait, instead of handling it", async () => {
    const q = queues();
    const far = Date.now() + 20 * 3600_000;
    const near = Date.now() + 3600_000;
    const result = await consume(q.env, "quiz-api-events", [
      { kind: "lti_passback", passback_id: "lpb_far", not_before: far },
      { kind: "delivery", event_id: "evt_near", endpoint_id: "whe_1", attempt: 2, not_before: near },
    ]);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toHaveLength(2);
    // Still more than 12 h away: the longest delay again, not_before kept.
    expect(q.lti).toEqual([
      { body: { kind: "lti_passback", passback_id: "lpb_far", not_before: expect.any(Number) }, delaySeconds: TWELVE_HOURS },
    ]);
    expect(Math.abs((q.lti[0]?.body.not_before ?? 0) - far)).toBeLessThan(5_000);
    // Within 12 h: the rest of the wait as its delay, and handled when it arrives.
    expect(q.events.map((m) => m.body)).toEqual([{ kind: "delivery", event_id: "evt_near", endpoint_id: "whe_1", attempt: 2 }]);
    expect(q.events[0]?.delaySeconds).toBeGreaterThan(3590);
    expect(q.events[0]?.delaySeconds).toBeLessThanOrEqual(3600);
  });

  it("never sends a dead letter on: it is recorded and acknowledged", async () => {
    const q = queues();
    const result = await consume(q.env, "quiz-api-events-dlq", [
      { kind: "delivery", event_id: "evt_1", endpoint_id: "whe_1", attempt: 2, not_before: Date.now() + 3600_000 },
      { kind: "dead", event_id: "evt_1", endpoint_id: "whe_1", redelivery: 0, attempts: 3 },
    ]);
    expect(result.explicitAcks).toHaveLength(2);
    expect([...q.events, ...q.jobs, ...q.lti, ...q.dead]).toEqual([]);
  });
});
