import { describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../../support/call";
import { deliveries, eventually, hook, newUser, receivedAt, sleep, waitForRequests } from "../../support/webhook-helpers";

/**
 * POST /v1/events/{id}/redeliver (§6b, §7): only to the caller's enabled endpoints subscribed to
 * the event's type, each once per call, at most 5 redeliveries of an event an hour; the same
 * webhook-id and a fresh schedule, recorded under the redelivery's number.
 */

async function createEndpoint(auth: string, url: string, events: string[], enabled = true) {
  const res = await call("/v1/webhook-endpoints", { auth, body: { url, events, enabled } });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

/** A user.created event, and the id its deliveries carry as webhook-id. */
async function userCreatedEvent(): Promise<string> {
  const user = await newUser();
  expect(user.status).toBe(201);
  const events = await call("/v1/events?type=user.created&limit=1");
  expect(events.json.events[0]!.data.object.id).toBe(user.json.id);
  return events.json.events[0]!.id;
}

const redeliver = (eventId: string, auth: string, body: unknown = {}) => call(`/v1/events/${eventId}/redeliver`, { auth, body });

describe("POST /v1/events/{id}/redeliver", { timeout: 60_000 }, () => {
  it("only to enabled endpoints subscribed to the type, each once per call, with the same webhook-id", async () => {
    const { key } = await seedApiKey(["webhooks:write"]);
    const [typed, all, other, disabled] = [hook("ok"), hook("ok"), hook("ok"), hook("ok")];
    const typedId = await createEndpoint(key, typed, ["user.created"]);
    const allId = await createEndpoint(key, all, ["*"]);
    const otherId = await createEndpoint(key, other, ["quiz.created"]);
    const disabledId = await createEndpoint(key, disabled, ["user.created"], false);
    const eventId = await userCreatedEvent();
    await waitForRequests(typed, 1);
    await waitForRequests(all, 1);

    const res = await redeliver(eventId, key);
    expect(res.status, res.text).toBe(202);
    expect(res.json.redelivery).toBe(1);
    expect([...res.json.endpoint_ids].sort()).toEqual([typedId, allId].sort());
    for (const url of [typed, all]) {
      const requests = await waitForRequests(url, 2);
      expect(requests.map((r) => r.headers["webhook-id"])).toEqual([eventId, eventId]);
    }
    for (const [id, status] of [
      [otherId, 409],
      [disabledId, 409],
    ] as const)
      expectProblem(await redeliver(eventId, key, { endpoint_id: id }), status, "endpoint_not_subscribed");

    // Named, by its current or its former (we_) id: that endpoint alone.
    const named = await redeliver(eventId, key, { endpoint_id: `we_${typedId.slice(4)}` });
    expect(named.status, named.text).toBe(202);
    expect(named.json).toEqual({ event_id: eventId, redelivery: 2, endpoint_ids: [typedId] });
    await waitForRequests(typed, 3);
    await sleep(2000);
    expect(await receivedAt(typed)).toHaveLength(3);
    expect(await receivedAt(all)).toHaveLength(2);
    expect(await receivedAt(other)).toEqual([]);
    expect(await receivedAt(disabled)).toEqual([]);
    const records = (await deliveries(typedId)).map((d) => [d.redelivery, d.attempt, d.status]);
    expect(records).toEqual([
      [0, 1, "succeeded"],
      [1, 1, "succeeded"],
      [2, 1, "succeeded"],
    ]);
  });

  it("a fresh retry schedule, each attempt recorded once under the redelivery's number", async () => {
    const { key } = await seedApiKey(["webhooks:write"]);
    const url = hook("fail");
    const endpointId = await createEndpoint(key, url, ["user.created"]);
    const eventId = await userCreatedEvent();
    await waitForRequests(url, 3);
    expect((await redeliver(eventId, key, { endpoint_id: endpointId })).status).toBe(202);
    await waitForRequests(url, 6);
    const expected = [0, 1].flatMap((redelivery) => [1, 2, 3].map((attempt) => [redelivery, attempt, "failed", attempt < 3]));
    await eventually(async () =>
      expect((await deliveries(endpointId)).map((d) => [d.redelivery, d.attempt, d.status, d.next_retry_at !== null])).toEqual(
        expected,
      ),
    );
    await sleep(2000);
    expect(await receivedAt(url)).toHaveLength(6);
  });

  it("at most 5 redeliveries of one event per hour, whoever asks: then 429 redelivery_limited with Retry-After", async () => {
    const { key } = await seedApiKey(["webhooks:write"]);
    const { key: stranger } = await seedApiKey(["webhooks:write"]);
    await createEndpoint(key, hook("ok"), ["user.created"]);
    await createEndpoint(stranger, hook("ok"), ["user.created"]);
    const eventId = await userCreatedEvent();
    // Eight at once, from two credentials: D1 numbers them one at a time, so exactly five pass.
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => redeliver(eventId, i % 2 ? key : stranger)));
    const accepted = answers.filter((res) => res.status === 202);
    expect(accepted.map((res) => res.json.redelivery).sort()).toEqual([1, 2, 3, 4, 5]);
    const refused = answers.filter((res) => res.status !== 202);
    expect(refused).toHaveLength(3);
    for (const res of refused) {
      expectProblem(res, 429, "redelivery_limited");
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
    }
    // Another event has its own five.
    expect((await redeliver(await userCreatedEvent(), key)).status).toBe(202);
  });

  it("an unknown event, or an unknown endpoint_id → 404", async () => {
    const { key } = await seedApiKey(["webhooks:write"]);
    const eventId = await userCreatedEvent();
    expectProblem(await redeliver(eventId, key, { endpoint_id: "whe_01kamz3f7c9n0p8s6e5vwx2y4r" }), 404, "not_found");
    expectProblem(await redeliver("evt_01kamz3f7c9n0p8s6e5vwx2y4r", key), 404, "not_found");
    expectProblem(await redeliver(eventId, key, { endpoint_id: "whd_01kamz3f7c9n0p8s6e5vwx2y4r" }), 400, "validation_failed");
  });
});
