import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { newId } from "../../src/lib/ids";
import type { QueueMessage } from "../../src/queue/messages";
import { call } from "../support/call";
import { deliveries, eventually, hook, newUser, RECEIVER, receivedAt, sleep, waitForRequests } from "../support/webhook-helpers";

/**
 * §6b "one delivery record per attempt": each (event, endpoint, redelivery, attempt) is sent and
 * recorded once however often the real local queue hands a message over, a failed fetch is an
 * ordinary failed attempt, and a crash mid-attempt neither forks nor stalls the schedule
 * (WEBHOOK_RETRY_DELAYS_SECONDS is "1,1": three attempts a second apart).
 */

const made: string[] = [];
async function createEndpoint(url: string, events: string[]) {
  const res = await call("/v1/webhook-endpoints", { body: { url, events } });
  expect(res.status, res.text).toBe(201);
  made.push(res.json.id);
  return res.json as { id: string };
}

afterEach(async () => {
  for (const id of made.splice(0)) await call(`/v1/webhook-endpoints/${id}`, { method: "DELETE" });
});

/** An event recorded straight to D1 and marked handed over: only the messages a test sends deliver it. */
async function recordEvent(): Promise<string> {
  const id = newId("event");
  const now = new Date().toISOString();
  await env.DB.prepare("INSERT INTO events (id, type, created_at, data, dispatched_at) VALUES (?, 'quiz.deleted', ?, ?, ?)")
    .bind(id, now, JSON.stringify({ object: { id: "quiz_gone" } }), now)
    .run();
  return id;
}

const attemptMessage = (eventId: string, endpointId: string, attempt: number): QueueMessage => ({
  kind: "delivery",
  event_id: eventId,
  endpoint_id: endpointId,
  redelivery: 0,
  attempt,
});

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const summary = (list: Awaited<ReturnType<typeof deliveries>>) =>
  list.map((d) => [d.redelivery, d.attempt, d.status, d.next_retry_at !== null]);

describe("one delivery record per attempt", { timeout: 120_000 }, () => {
  it("a fetch that fails before any answer (DNS, connection, TLS) is a failed attempt, recorded once, and a minute later nothing more", async () => {
    // A name in no top-level domain resolves nowhere (and is not refused as a special-use name);
    // port 1 on loopback refuses connections; https to the plain-http receiver fails its TLS handshake.
    const targets = [
      "https://webhook-dns-failure.unresolvable-tld-for-tests/hook",
      "http://127.0.0.1:1/hook",
      `https://127.0.0.1:${new URL(RECEIVER).port}/hook/ok-tls`,
    ];
    const endpoints = await Promise.all(targets.map((url) => createEndpoint(url, ["user.created"])));
    expect((await newUser()).status).toBe(201);
    const expected = [
      [0, 1, "failed", true],
      [0, 2, "failed", true],
      [0, 3, "failed", false],
    ];
    for (const endpoint of endpoints)
      await eventually(async () => expect(summary(await deliveries(endpoint.id))).toEqual(expected), 30_000);
    // A minute of quiet after the last attempt: the storm this guards against forked within seconds
    // (the queue redelivers at once, the retries here are a second apart). The slow project starts
    // this file first, so the minute passes while the other suites run.
    await sleep(60_000);
    for (const [index, endpoint] of endpoints.entries()) {
      const list = await deliveries(endpoint.id);
      expect(summary(list), targets[index]).toEqual(expected);
      for (const record of list) expect(record.error, targets[index]).toMatch(/^Request failed: /);
    }
    expect(await receivedAt(targets[2]!)).toEqual([]);
  });

  it("a message the queue hands over three times is sent and recorded once", async () => {
    const url = hook("ok");
    const endpoint = await createEndpoint(url, ["quiz.deleted"]);
    const eventId = await recordEvent();
    const message = attemptMessage(eventId, endpoint.id, 1);
    await env.EVENTS_QUEUE.sendBatch([message, message, message].map((body) => ({ body, contentType: "json" as const })));
    await env.EVENTS_QUEUE.send(message, { contentType: "json" });
    await waitForRequests(url, 1);
    await sleep(3000);
    expect(await receivedAt(url)).toHaveLength(1);
    expect(summary(await deliveries(endpoint.id))).toEqual([[0, 1, "succeeded", false]]);
  });

  it("after a crash mid-attempt a redelivered message does not fork the schedule; the cron ends the claim and the next attempt follows once", async () => {
    const url = hook("ok");
    const endpoint = await createEndpoint(url, ["quiz.deleted"]);
    const eventId = await recordEvent();
    // The claim of attempt 1 that a worker made two minutes ago before it died: sent or not, never recorded.
    const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
    await env.DB.prepare(
      `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, redelivery, attempt, status, duration_ms, created_at)
       VALUES (?, ?, ?, 0, 1, 'pending', 0, ?)`,
    )
      .bind(newId("delivery"), eventId, endpoint.id, twoMinutesAgo)
      .run();
    // The queue hands the message over again: the attempt is claimed, so nothing is sent.
    await env.EVENTS_QUEUE.send(attemptMessage(eventId, endpoint.id, 1), { contentType: "json" });
    await sleep(3000);
    expect(await receivedAt(url)).toEqual([]);
    expect(summary(await deliveries(endpoint.id))).toEqual([[0, 1, "pending", false]]);

    // The cron ends the stale claim as a failed attempt; the next attempt follows on the schedule.
    await runCron();
    await waitForRequests(url, 1);
    await eventually(async () =>
      expect(summary(await deliveries(endpoint.id))).toEqual([
        [0, 1, "failed", true],
        [0, 2, "succeeded", false],
      ]),
    );
    const [interrupted] = await deliveries(endpoint.id);
    expect(interrupted!.error).toBe("The attempt was interrupted before its outcome was recorded.");

    // Copies of either attempt, and the cron again, change nothing.
    await env.EVENTS_QUEUE.sendBatch(
      [1, 2].map((attempt) => ({ body: attemptMessage(eventId, endpoint.id, attempt), contentType: "json" as const })),
    );
    await runCron();
    await sleep(3000);
    expect(await receivedAt(url)).toHaveLength(1);
    expect(await deliveries(endpoint.id)).toHaveLength(2);
  });
});
