import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../../support/call";
import { deliveries, eventually, hook, waitForRequests } from "../../support/webhook-helpers";

/**
 * POST /v1/webhook-endpoints/{id}/test: one webhook_endpoint.test event, recorded, signed like any
 * event and delivered to that endpoint only (whatever it subscribes to), its attempt recorded
 * under the endpoint's deliveries; 404 to a credential that does not own the endpoint; 409 when
 * the endpoint is disabled; at most 5 an hour to one endpoint, whoever asks (429 after).
 */

async function endpoint(url: string, events: string[], auth?: string) {
  const res = await call("/v1/webhook-endpoints", { body: { url, events }, auth });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: string; secret: string };
}

describe("POST /v1/webhook-endpoints/{id}/test", () => {
  it("delivers one signed webhook_endpoint.test to that endpoint only and records the attempt", async () => {
    const url = hook("ok");
    const other = hook("ok");
    const target = await endpoint(url, ["submission.graded"]);
    const everything = await endpoint(other, ["*"]);
    const sent = await call(`/v1/webhook-endpoints/${target.id}/test`, { method: "POST" });
    expect(sent.status, sent.text).toBe(202);
    expect(sent.json).toEqual({ event_id: expect.stringMatching(/^evt_/), endpoint_id: target.id });

    const [request] = await waitForRequests(url, 1);
    const event = new Webhook(target.secret.slice("whsec_".length)).verify(request!.body, request!.headers) as {
      id: string;
      type: string;
      data: { object: { id: string; url: string } };
    };
    expect(event).toMatchObject({ id: sent.json.event_id, type: "webhook_endpoint.test" });
    expect(event.data.object).toMatchObject({ id: target.id, url: new URL(url).origin });
    expect((await call(`/v1/events/${sent.json.event_id}`)).json.type).toBe("webhook_endpoint.test");
    await eventually(async () => {
      const records = await deliveries(target.id);
      expect(records.map((r) => [r.event_id, r.attempt, r.status])).toEqual([[sent.json.event_id, 1, "succeeded"]]);
    });
    // Nobody else: the endpoint subscribed to every type gets nothing, even after the sweep's minute.
    const otherRecords = await deliveries(everything.id);
    expect(otherRecords.filter((r) => r.event_id === sent.json.event_id)).toEqual([]);
  });

  it("another credential's test of the endpoint → 404; a disabled endpoint → 409 endpoint_disabled", async () => {
    const mine = (await seedApiKey(["webhooks:write"])).key;
    const theirs = (await seedApiKey(["webhooks:write"])).key;
    const target = await endpoint(hook("ok"), ["*"], mine);
    expectProblem(await call(`/v1/webhook-endpoints/${target.id}/test`, { method: "POST", auth: theirs }), 404, "not_found");
    const disabled = await call(`/v1/webhook-endpoints/${target.id}`, { method: "PATCH", body: { enabled: false }, auth: mine });
    expect(disabled.status, disabled.text).toBe(200);
    expectProblem(
      await call(`/v1/webhook-endpoints/${target.id}/test`, { method: "POST", auth: mine }),
      409,
      "endpoint_disabled",
    );
  });

  it("at most 5 test events to one endpoint per hour, whoever asks: then 429 test_event_limited with Retry-After, nothing recorded", async () => {
    const { key: owner } = await seedApiKey(["webhooks:write"]);
    const url = hook("ok");
    const target = await endpoint(url, ["*"], owner);
    const test = (auth?: string) => call(`/v1/webhook-endpoints/${target.id}/test`, { method: "POST", auth });
    // Eight at once, from the owner and admin: D1 runs the inserts one at a time, so exactly five pass.
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => test(i % 2 ? owner : undefined)));
    const accepted = answers.filter((res) => res.status === 202);
    expect(accepted).toHaveLength(5);
    const refused = answers.filter((res) => res.status !== 202);
    expect(refused).toHaveLength(3);
    for (const res of refused) {
      expectProblem(res, 429, "test_event_limited");
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
    }
    const recorded = await call("/v1/events?type=webhook_endpoint.test&limit=100");
    const ofTarget = recorded.json.events.filter((e) => e.data.object.id === target.id).map((e) => e.id);
    expect(ofTarget.sort()).toEqual(accepted.map((res) => res.json.event_id).sort());
    expect(await waitForRequests(url, 5)).toHaveLength(5);
    // Another endpoint has its own five.
    const other = await endpoint(hook("ok"), ["*"], owner);
    expect((await call(`/v1/webhook-endpoints/${other.id}/test`, { method: "POST", auth: owner })).status).toBe(202);
  });
});
