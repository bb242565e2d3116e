import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import type { Database } from "../../src/env";
import { sweepEvents } from "../../src/events/sweep";
import worker from "../../src/index";
import type { QueueMessage } from "../../src/queue/messages";
import { notingQueue } from "../support/binding-counter";
import { BASE, call, defaultKey } from "../support/call";

/**
 * Which recorded events a request hands to the queue: only those an enabled endpoint subscribes
 * to, by the isolate's view of the subscriptions; the sweep settles the rest, and hands over any
 * a stale view held back. Every send still reaches the real local queue.
 */

const noting = (queue: Queue) => notingQueue<QueueMessage>(queue);

/** POST /v1/users through the worker with the noted queue, waiting for its after-response work. */
async function createUser(runEnv: Env) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${BASE}/v1/users`, {
      method: "POST",
      headers: { authorization: `Bearer ${await defaultKey()}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Dispatch", email: `${crypto.randomUUID()}@example.com` }),
    }),
    runEnv,
    ctx,
  );
  expect(res.status).toBe(201);
  const user = (await res.json()) as { id: string };
  await waitOnExecutionContext(ctx);
  const event = await env.DB.prepare(
    "SELECT id, dispatched_at FROM events WHERE type = 'user.created' AND json_extract(data, '$.object.id') = ?",
  )
    .bind(user.id)
    .first<{ id: string; dispatched_at: string | null }>();
  return event!;
}

const eventIds = (sent: QueueMessage[]) => sent.flatMap((m) => (m.kind === "event" ? [m.event_id] : []));

describe("dispatching recorded events", () => {
  it("a request hands the queue only the events an endpoint subscribes to; the sweep settles the rest and catches what a stale view held back", async () => {
    const noted = noting(env.EVENTS_QUEUE);
    const runEnv = { ...env, EVENTS_QUEUE: noted.queue };

    // No endpoint: the event is recorded, and nothing is sent.
    const unwanted = await createUser(runEnv);
    expect(eventIds(noted.sent)).toEqual([]);
    expect(unwanted.dispatched_at).toBeNull();

    // An endpoint made through the API: this isolate hands its events over at once.
    const endpoint = await call("/v1/webhook-endpoints", {
      body: { url: `${env.WEBHOOK_RECEIVER_URL}/hook/ok-dispatch-${Date.now().toString(36)}`, events: ["user.created"] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const wanted = await createUser(runEnv);
    expect(eventIds(noted.sent)).toEqual([wanted.id]);

    // An endpoint another isolate made (written straight to D1): this isolate's view is stale
    // for up to 10 s, so it holds the event back, undispatched.
    await env.DB.prepare("UPDATE webhook_endpoints SET events = '[\"quiz.created\"]' WHERE id = ?").bind(endpoint.json.id).run();
    await call(`/v1/webhook-endpoints/${endpoint.json.id}`, { method: "PATCH", body: { description: "quiz events only" } });
    const heldBack = await createUser(runEnv);
    expect(eventIds(noted.sent)).toEqual([wanted.id]);
    await env.DB.prepare("UPDATE webhook_endpoints SET events = '[\"*\"]' WHERE id = ?").bind(endpoint.json.id).run();
    const stale = await createUser(runEnv);
    expect(eventIds(noted.sent)).toEqual([wanted.id]);
    expect(stale.dispatched_at).toBeNull();

    // A minute on, the sweep: the event an endpoint wants (it existed when the event was recorded)
    // goes to the queue; those none wanted when recorded are settled without a message.
    for (let tries = 0; ; tries++) {
      const row = await env.DB.prepare("SELECT dispatched_at FROM events WHERE id = ?")
        .bind(wanted.id)
        .first<{ dispatched_at: string | null }>();
      if (row?.dispatched_at) break;
      if (tries > 200) throw new Error("the queue's consumer never dispatched the wanted event");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    noted.sent.length = 0;
    const db = drizzle(runEnv.DB) as Database;
    await sweepEvents(runEnv, db, Date.now() + 61_000);
    expect(eventIds(noted.sent).sort()).toEqual([heldBack.id, stale.id].sort());
    const states = await env.DB.prepare("SELECT id, dispatched_at FROM events WHERE id IN (?, ?, ?, ?)")
      .bind(unwanted.id, wanted.id, heldBack.id, stale.id)
      .all<{ id: string; dispatched_at: string | null }>();
    expect(states.results.every((r) => r.dispatched_at !== null)).toBe(true);
    expect(noted.sent.some((m) => m.kind === "event" && m.event_id === unwanted.id)).toBe(false);
  });
});
