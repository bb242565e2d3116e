import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import { call, expectProblem } from "../support/call";
import { deliveries, eventually, hook, newUser, receivedAt, waitForRequests } from "../support/webhook-helpers";
import { createEndpoint, deleteEndpointsAfterEach } from "./fixtures";

deleteEndpointsAfterEach();

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
    const event = events.json.events.find((e) => e.data.object.id === endpoint.id);
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
