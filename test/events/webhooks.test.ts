import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sealSecret } from "../../src/events/secrets";
import worker from "../../src/index";
import { newId } from "../../src/lib/ids";
import { call, expectProblem, seedApiKey } from "../helpers";
import { deliveries, eventually, hook, newUser, receivedAt, waitForRequests } from "../support/webhook-helpers";

const made: string[] = [];
async function createEndpoint(url: string, events: string[] = ["user.created"]) {
  const res = await call("/v1/webhook-endpoints", { body: { url, events } });
  expect(res.status, res.text).toBe(201);
  made.push(res.json.id);
  return res.json as { id: string; secret: string; url: string; enabled: boolean };
}

// Each test's endpoints go with it, so that later tests' events are not delivered to them too.
afterEach(async () => {
  for (const id of made.splice(0)) await call(`/v1/webhook-endpoints/${id}`, { method: "DELETE" });
});

describe("webhook endpoints", () => {
  it("creates an endpoint with a whsec_ secret shown once, never again", async () => {
    const created = await createEndpoint(hook("ok"));
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await call(`/v1/webhook-endpoints/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.text).not.toContain(created.secret);
    expect(read.json).not.toHaveProperty("secret");
    const list = await call("/v1/webhook-endpoints");
    expect(list.text).not.toContain("whsec_");
    const stored = await env.DB.prepare("SELECT * FROM webhook_endpoints WHERE id = ?").bind(created.id).first();
    expect(JSON.stringify(stored)).not.toContain(created.secret.slice(6));
  });

  it("refuses unsafe URLs with a 400 naming the url field", async () => {
    for (const url of [
      "http://example.com/hook",
      "https://user:pw@example.com/hook",
      "http://10.0.0.1/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://127.0.0.2/hook",
      "http://[::ffff:10.0.0.1]/",
      "http://2130706434/",
      "ftp://example.com/",
      "not a url",
    ]) {
      const res = await call("/v1/webhook-endpoints", { body: { url, events: ["*"] } });
      const problem = expectProblem(res, 400, "validation_failed");
      expect(problem.errors?.[0]?.path, url).toBe("url");
    }
    const patch = await call(`/v1/webhook-endpoints/${(await createEndpoint(hook("ok"))).id}`, {
      method: "PATCH",
      body: { url: "http://192.168.1.1/" },
    });
    expectProblem(patch, 400, "validation_failed");
  });

  it("names endpoints whe_… and delivery records whd_…, and reads a path id of the former we_ shape as the same endpoint", async () => {
    const created = await createEndpoint(hook("ok"));
    expect(created.id).toMatch(/^whe_[0-7][0-9a-hjkmnp-tv-z]{25}$/);
    await newUser();
    await eventually(async () => expect((await deliveries(created.id)).map((d) => d.status)).toEqual(["succeeded"]));
    const [record] = await deliveries(created.id);
    expect(record!.id).toMatch(/^whd_[0-7][0-9a-hjkmnp-tv-z]{25}$/);
    expect(record!.endpoint_id).toBe(created.id);
    const legacy = `we_${created.id.slice(4)}`;
    const read = await call(`/v1/webhook-endpoints/${legacy}`);
    expect(read.status, read.text).toBe(200);
    expect(read.json.id).toBe(created.id);
    expectProblem(await call(`/v1/webhook-endpoints/dlv_${created.id.slice(4)}`), 404);
  });

  it("an endpoint stored before its id was renamed (its secret sealed under the we_ id) still signs", async () => {
    const ulid = newId("webhookEndpoint").slice(4);
    const id = `whe_${ulid}`;
    const url = hook("ok");
    const secret = `whsec_${btoa("s".repeat(32))}`;
    const now = new Date().toISOString();
    await env.DB.prepare(
      `INSERT INTO webhook_endpoints (id, url, description, events, enabled, secret_sealed, created_at, updated_at)
       VALUES (?, ?, '', '["user.created"]', 1, ?, ?, ?)`,
    )
      .bind(id, url, await sealSecret(env, `we_${ulid}`, secret), now, now)
      .run();
    made.push(id);
    await newUser();
    const [request] = await waitForRequests(url, 1);
    expect(() => new Webhook(secret).verify(request!.body, request!.headers)).not.toThrow();
  });

  it("refuses unknown event types", async () => {
    const res = await call("/v1/webhook-endpoints", { body: { url: hook("ok"), events: ["user.exploded"] } });
    expectProblem(res, 400, "validation_failed");
  });

  it("needs webhooks:write for endpoints and events:read for events", async () => {
    const { key: reader } = await seedApiKey(["events:read"]);
    const { key: writer } = await seedApiKey(["webhooks:write"]);
    expectProblem(await call("/v1/webhook-endpoints", { auth: reader }), 403, "insufficient_scope");
    expectProblem(await call("/v1/events", { auth: writer }), 403, "insufficient_scope");
    expect((await call("/v1/events", { auth: reader })).status).toBe(200);
    expect((await call("/v1/webhook-endpoints", { auth: writer })).status).toBe(200);
    const { key: quizzes } = await seedApiKey(["quizzes:read", "quizzes:write"]);
    expectProblem(await call("/v1/events", { auth: quizzes }), 403, "insufficient_scope");
  });
});

describe("delivery", { timeout: 30_000 }, () => {
  it("delivers an event signed per Standard Webhooks, verified by the standardwebhooks library", async () => {
    const url = hook("ok");
    const endpoint = await createEndpoint(url);
    const user = await newUser();
    expect(user.status).toBe(201);
    const [request] = await waitForRequests(url, 1);
    const payload = new Webhook(endpoint.secret).verify(request!.body, request!.headers) as {
      id: string;
      type: string;
      data: { object: { id: string } };
    };
    expect(payload.type).toBe("user.created");
    expect(payload.data.object.id).toBe(user.json.id);
    expect(request!.headers["webhook-id"]).toBe(payload.id);
    expect(Math.abs(Number(request!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    // The event as delivered is the event as the API shows it.
    const event = await call(`/v1/events/${payload.id}`);
    expect(event.json).toEqual(payload);
    // A tampered body or a wrong secret does not verify.
    expect(() => new Webhook(endpoint.secret).verify(request!.body.replace("user", "resu"), request!.headers)).toThrow();
    expect(() => new Webhook(`whsec_${btoa("x".repeat(32))}`).verify(request!.body, request!.headers)).toThrow();
    await eventually(async () => expect((await deliveries(endpoint.id)).map((d) => d.status)).toEqual(["succeeded"]));
  });

  it("only to endpoints subscribed to the type", async () => {
    const graded = hook("ok");
    const all = hook("ok");
    await createEndpoint(graded, ["submission.graded"]);
    await createEndpoint(all, ["*"]);
    await newUser();
    await waitForRequests(all, 1);
    expect(await receivedAt(graded)).toEqual([]);
  });

  it("retries a failing receiver on the configured delays and records every attempt", async () => {
    const url = hook("flaky2");
    const endpoint = await createEndpoint(url);
    await newUser();
    const requests = await waitForRequests(url, 3);
    expect(new Set(requests.map((r) => r.headers["webhook-id"])).size).toBe(1);
    // Each attempt signs its own time.
    for (const r of requests) expect(() => new Webhook(endpoint.secret).verify(r.body, r.headers)).not.toThrow();
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(900);
    await eventually(async () => {
      const list = await deliveries(endpoint.id);
      expect(list.map((d) => [d.attempt, d.status, d.response_status])).toEqual([
        [1, "failed", 500],
        [2, "failed", 500],
        [3, "succeeded", 200],
      ]);
      expect(list[0]!.next_retry_at).not.toBeNull();
      expect(list[0]!.error).toContain("receiver says no");
      expect(list[2]!.next_retry_at).toBeNull();
    });
  });

  it("gives up after the last delay: the last attempt is failed; redirects are failures", async () => {
    const url = hook("redirect");
    const endpoint = await createEndpoint(url);
    await newUser();
    await waitForRequests(url, 3);
    await eventually(async () =>
      expect((await deliveries(endpoint.id)).map((d) => [d.status, d.response_status, d.next_retry_at !== null])).toEqual([
        ["failed", 302, true],
        ["failed", 302, true],
        ["failed", 302, false],
      ]),
    );
    expect(await receivedAt(url.replace("/hook/redirect-", "/hook/ok-redirect-"))).toEqual([]);
  });

  it("reads at most 64 KiB of an answer and keeps 1 KiB", async () => {
    const url = hook("big");
    const endpoint = await createEndpoint(url);
    await newUser();
    await eventually(async () => {
      const [first] = await deliveries(endpoint.id);
      expect(first?.error?.length).toBeLessThanOrEqual(1024);
      expect(first?.error).toContain("HTTP 500");
    });
  });

  it("signs with both secrets during a rotation's grace", async () => {
    const url = hook("ok");
    const endpoint = await createEndpoint(url);
    const rotated = await call(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { body: { grace_seconds: 3600 } });
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).not.toBe(endpoint.secret);
    await newUser();
    const [request] = await waitForRequests(url, 1);
    expect(request!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(() => new Webhook(endpoint.secret).verify(request!.body, request!.headers)).not.toThrow();
    expect(() => new Webhook(rotated.json.secret).verify(request!.body, request!.headers)).not.toThrow();
    // Rotating again ends the first grace: the first secret no longer signs.
    const again = await call(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { body: { grace_seconds: 0 } });
    await newUser();
    const [, second] = await waitForRequests(url, 2);
    expect(second!.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(() => new Webhook(again.json.secret).verify(second!.body, second!.headers)).not.toThrow();
    expect(() => new Webhook(endpoint.secret).verify(second!.body, second!.headers)).toThrow();
  });

  it("a hanging receiver does not hold up the request that caused the event", async () => {
    const hanging = hook("hang");
    const endpoint = await createEndpoint(hanging);
    const res = await newUser();
    expect(res.status).toBe(201);
    // Answered before the receiver was even called: delivery runs on the queue, after the response.
    expect(await receivedAt(hanging)).toEqual([]);
    await waitForRequests(hanging, 1);
    await vi.waitFor(
      async () => {
        const [first] = await deliveries(endpoint.id);
        expect(first?.error).toBe("No answer within 10 s.");
        expect(first?.duration_ms).toBeGreaterThanOrEqual(9_000);
      },
      { timeout: 25_000, interval: 500 },
    );
  }, 40_000);

  it("disables an endpoint that has failed every attempt for WEBHOOK_DISABLE_AFTER_SECONDS, with an event", async () => {
    const url = `${hook("fail")}?token=receiver-secret`;
    const endpoint = await createEndpoint(url);
    const fourDaysAgo = new Date(Date.now() - 4 * 86_400_000).toISOString();
    await env.DB.prepare("UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?").bind(fourDaysAgo, endpoint.id).run();
    await newUser();
    await eventually(async () => expect((await call(`/v1/webhook-endpoints/${endpoint.id}`)).json.enabled).toBe(false));
    const read = await call(`/v1/webhook-endpoints/${endpoint.id}`);
    expect(read.json.disabled_at).not.toBeNull();
    const events = await call("/v1/events?type=webhook_endpoint.disabled");
    const event = (events.json.events as { data: { object: { id: string; url: string } } }[]).find(
      (e) => e.data.object.id === endpoint.id,
    );
    // The event names the endpoint's origin only: its path and query may hold the receiver's token.
    expect(event?.data.object.url).toBe(new URL(url).origin);
    expect(JSON.stringify(event)).not.toContain("/hook/");
    expect(JSON.stringify(event)).not.toContain("receiver-secret");
    // Disabled: no further attempt.
    const before = (await receivedAt(url)).length;
    await newUser();
    await new Promise((r) => setTimeout(r, 2500));
    expect((await receivedAt(url)).length).toBe(before);
    // Enabling again restarts the clock.
    const enabled = await call(`/v1/webhook-endpoints/${endpoint.id}`, { method: "PATCH", body: { enabled: true } });
    expect(enabled.json).toMatchObject({ enabled: true, disabled_at: null });
  });

  it("redelivers an event with the same webhook-id", async () => {
    const url = hook("ok");
    const endpoint = await createEndpoint(url);
    await newUser();
    const [first] = await waitForRequests(url, 1);
    const id = first!.headers["webhook-id"]!;
    const res = await call(`/v1/events/${id}/redeliver`, { body: { endpoint_id: endpoint.id } });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ event_id: id, redelivery: 1, endpoint_ids: [endpoint.id] });
    const [, second] = await waitForRequests(url, 2);
    expect(second!.headers["webhook-id"]).toBe(id);
    expectProblem(await call(`/v1/events/${id}/redeliver`, { body: { endpoint_id: "whe_01kamz3f7c9n0p8s6e5vwx2y4r" } }), 404);
    expectProblem(await call("/v1/events/evt_01kamz3f7c9n0p8s6e5vwx2y4r/redeliver", { body: {} }), 404);
  });
});

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

describe("GET /v1/events", () => {
  it("lists newest first, filters by type, pages with a cursor", async () => {
    for (let i = 0; i < 3; i++) await newUser(`Lister ${i}`);
    const page = await call("/v1/events?type=user.created&limit=2");
    expect(page.status).toBe(200);
    const [a, b] = page.json.events as { id: string; created_at: string; type: string }[];
    expect(a!.id > b!.id).toBe(true);
    expect(a!.created_at >= b!.created_at).toBe(true);
    expect(page.json.events.every((e: { type: string }) => e.type === "user.created")).toBe(true);
    const next = await call(`/v1/events?type=user.created&limit=2&cursor=${page.json.next_cursor}`);
    expect(next.json.events[0].id < b!.id).toBe(true);
    expectProblem(await call("/v1/events?type=nope"), 400, "validation_failed");
    expectProblem(await call("/v1/events/evt_01kamz3f7c9n0p8s6e5vwx2y4r"), 404);
  });

  it("an event is readable as soon as its change is answered", async () => {
    const user = await newUser();
    const list = await call("/v1/events?type=user.created&limit=1");
    expect(list.json.events[0].data.object.id).toBe(user.json.id);
  });
});
