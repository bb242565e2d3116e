import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { newId } from "../../src/lib/ids";
import { hook, waitForRequests } from "../support/webhook-helpers";
import { createEndpoint, deleteEndpointsAfterEach } from "./fixtures";

deleteEndpointsAfterEach();

describe("the outbox sweep (cron)", { timeout: 30_000 }, () => {
  it("hands over events the request did not, and deletes what is past retention", async () => {
    const url = hook("ok");
    const endpoint = await createEndpoint(url, ["quiz.deleted"]);
    // An endpoint receives the events recorded after it was made: this one is older than the event.
    await env.DB.prepare("UPDATE webhook_endpoints SET created_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 600_000).toISOString(), endpoint.id)
      .run();
    const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
    const orphan = newId("event", Date.now() - 120_000);
    await env.DB.prepare("INSERT INTO events (id, type, created_at, data) VALUES (?, 'quiz.deleted', ?, ?)")
      .bind(orphan, twoMinutesAgo, JSON.stringify({ object: { id: "quiz_gone" } }))
      .run();
    const old = "evt_00000000000000000000000000";
    await env.DB.prepare("INSERT INTO events (id, type, created_at, data, dispatched_at) VALUES (?, 'quiz.deleted', ?, '{}', ?)")
      .bind(old, "2020-01-01T00:00:00.000Z", "2020-01-01T00:00:00.000Z")
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    const [request] = await waitForRequests(url, 1);
    expect(request!.headers["webhook-id"]).toBe(orphan);
    expect(await env.DB.prepare("SELECT id FROM events WHERE id = ?").bind(old).first()).toBeNull();
    expect(
      await env.DB.prepare("SELECT dispatched_at FROM events WHERE id = ?").bind(orphan).first("dispatched_at"),
    ).not.toBeNull();
  });
});
