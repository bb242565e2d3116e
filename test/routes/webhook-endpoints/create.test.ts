import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { sealSecret } from "../../../src/events/secrets";
import { newId } from "../../../src/lib/ids";
import { createEndpoint, deleteEndpointsAfterEach, made } from "../../events/fixtures";
import { call, expectProblem, seedApiKey } from "../../support/call";
import { deliveries, eventually, hook, newUser, waitForRequests } from "../../support/webhook-helpers";

deleteEndpointsAfterEach();

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
