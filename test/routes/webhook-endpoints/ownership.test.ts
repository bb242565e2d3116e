import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../../../src/lib/ids";
import { call, expectProblem, seedApiKey } from "../../support/call";
import { hook, newUser, waitForRequests } from "../../support/webhook-helpers";

/**
 * §6b "a webhook endpoint belongs to its creator": the endpoint, its deliveries, its secret
 * rotation and redelivery to it are visible and changeable only by the credential that created
 * it (an API key and its rotation successors, or an OAuth client) or by admin; others get 404.
 */

async function createEndpoint(auth: string, url: string, events: string[] = ["user.created"]) {
  const res = await call("/v1/webhook-endpoints", { auth, body: { url, events } });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: string; url: string; updated_at: string };
}

const listed = async (auth?: string) =>
  ((await call("/v1/webhook-endpoints?limit=100", { auth })).json.webhook_endpoints as { id: string }[]).map((e) => e.id);

async function accessToken(clientId: string, clientSecret: string): Promise<string> {
  const res = await call("/oauth/token", {
    auth: false,
    body: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.access_token;
}

describe("a webhook endpoint belongs to its creator", { timeout: 30_000 }, () => {
  it("another webhooks:write key's view, patch, rotation, deletion, deliveries and redelivery of it → 404; its list leaves it out", async () => {
    const { key: owner } = await seedApiKey(["webhooks:write"], { name: "owner" });
    const { key: other } = await seedApiKey(["webhooks:write"], { name: "other" });
    const url = hook("ok");
    const endpoint = await createEndpoint(owner, url);
    const mine = await createEndpoint(other, hook("ok"), ["quiz.deleted"]);
    const id = endpoint.id;

    for (const [method, path, body] of [
      ["GET", `/v1/webhook-endpoints/${id}`, undefined],
      ["GET", `/v1/webhook-endpoints/we_${id.slice(4)}`, undefined],
      ["PATCH", `/v1/webhook-endpoints/${id}`, { url: hook("ok"), events: ["*"] }],
      ["PATCH", `/v1/webhook-endpoints/${id}`, { enabled: false }],
      ["POST", `/v1/webhook-endpoints/${id}/rotate-secret`, { grace_seconds: 0 }],
      ["GET", `/v1/webhook-endpoints/${id}/deliveries`, undefined],
      ["DELETE", `/v1/webhook-endpoints/${id}`, undefined],
    ] as const)
      expectProblem(await call(path, { method, body, auth: other }), 404, "not_found");
    expect(await listed(other)).toEqual([mine.id]);

    // An event the endpoint receives: another's redelivery cannot aim at it, nor reach it unnamed.
    await newUser();
    const [request] = await waitForRequests(url, 1);
    const eventId = request!.headers["webhook-id"]!;
    expectProblem(await call(`/v1/events/${eventId}/redeliver`, { auth: other, body: { endpoint_id: id } }), 404, "not_found");
    expectProblem(await call(`/v1/webhook-endpoints/${id}`, { method: "DELETE", auth: other }), 404, "not_found");
    const unnamed = await call(`/v1/events/${eventId}/redeliver`, { auth: other, body: {} });
    expect(unnamed.status, unnamed.text).toBe(202);
    expect(unnamed.json).toEqual({ event_id: eventId, redelivery: null, endpoint_ids: [] });

    // Untouched, and its owner's in full.
    const read = await call(`/v1/webhook-endpoints/${id}`, { auth: owner });
    expect(read.status, read.text).toBe(200);
    expect(read.json).toMatchObject({ url, enabled: true, events: ["user.created"], updated_at: endpoint.updated_at });
    expect(await listed(owner)).toEqual([id]);
    const deliveries = await call(`/v1/webhook-endpoints/${id}/deliveries`, { auth: owner });
    expect(deliveries.json.deliveries.map((d: { event_id: string }) => d.event_id)).toEqual([eventId]);
    expect((await call(`/v1/webhook-endpoints/${id}/rotate-secret`, { auth: owner, body: {} })).status).toBe(200);

    // admin sees and changes every endpoint.
    expect(await listed()).toEqual(expect.arrayContaining([id, mine.id]));
    expect((await call(`/v1/webhook-endpoints/${id}`, { method: "PATCH", body: { description: "by admin" } })).status).toBe(200);
    expect((await call(`/v1/webhook-endpoints/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(`/v1/webhook-endpoints/${mine.id}`, { method: "DELETE", auth: other })).status).toBe(204);
  });

  it("an API key's rotation successor keeps its endpoints", async () => {
    const owner = await seedApiKey(["webhooks:write"], { name: "rotating" });
    const endpoint = await createEndpoint(owner.key, hook("ok"), ["quiz.deleted"]);
    const rotated = await call(`/v1/api-keys/${owner.id}/rotate`, { body: { grace_seconds: 0 } });
    expect(rotated.status, rotated.text).toBe(201);
    const successor = rotated.json.key as string;
    expect(await listed(successor)).toEqual([endpoint.id]);
    expect((await call(`/v1/webhook-endpoints/${endpoint.id}`, { auth: successor })).status).toBe(200);
    expect((await call(`/v1/webhook-endpoints/${endpoint.id}`, { method: "DELETE", auth: successor })).status).toBe(204);
  });

  it("an OAuth client's endpoints are its tokens' to see, not another client's", async () => {
    const clients = await Promise.all(
      ["first", "second"].map(async (name) => {
        const res = await call("/v1/oauth-clients", { body: { name, scopes: ["webhooks:write"] } });
        expect(res.status, res.text).toBe(201);
        return res.json as { client_id: string; client_secret: string };
      }),
    );
    const [first, second] = clients as [(typeof clients)[0], (typeof clients)[0]];
    const endpoint = await createEndpoint(await accessToken(first.client_id, first.client_secret), hook("ok"), ["quiz.deleted"]);
    const again = await accessToken(first.client_id, first.client_secret);
    expect((await call(`/v1/webhook-endpoints/${endpoint.id}`, { auth: again })).status).toBe(200);
    const stranger = await accessToken(second.client_id, second.client_secret);
    expectProblem(await call(`/v1/webhook-endpoints/${endpoint.id}`, { auth: stranger }), 404, "not_found");
    expect(await listed(stranger)).toEqual([]);
    expect((await call(`/v1/webhook-endpoints/${endpoint.id}`, { method: "DELETE", auth: again })).status).toBe(204);
  });

  it("an endpoint stored without its creator is admin's alone", async () => {
    const id = newId("webhookEndpoint");
    const now = new Date().toISOString();
    await env.DB.prepare(
      `INSERT INTO webhook_endpoints (id, url, description, events, enabled, secret_sealed, created_at, updated_at)
       VALUES (?, ?, '', '["quiz.deleted"]', 0, 'v1.x.y', ?, ?)`,
    )
      .bind(id, hook("ok"), now, now)
      .run();
    const { key } = await seedApiKey(["webhooks:write"]);
    expectProblem(await call(`/v1/webhook-endpoints/${id}`, { auth: key }), 404, "not_found");
    expect(await listed(key)).toEqual([]);
    expect((await call(`/v1/webhook-endpoints/${id}`)).status).toBe(200);
    expect((await call(`/v1/webhook-endpoints/${id}`, { method: "DELETE" })).status).toBe(204);
  });
});
