import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import {
  clientCredentials,
  createClient,
  expectInvalidClient,
  expectNeedsAdmin,
  MISSING,
  token,
  tokensFor,
  verify,
} from "./fixtures";

describe("DELETE /v1/oauth-clients/{id}", () => {
  it("→ 204; the client's access and refresh tokens, from every grant, stop working", async () => {
    const client = await createClient();
    const first = await tokensFor(client);
    const second = await tokensFor(client);
    const refreshed = await token({
      grant_type: "refresh_token",
      refresh_token: second.refresh_token,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    const live = [first.access_token, second.access_token, refreshed.json.access_token];
    for (const t of live) expect((await verify(t)).status).toBe(200);

    const res = await call(`/v1/oauth-clients/${client.id}`, { method: "DELETE" });
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe("");

    for (const t of live) {
      const refused = await verify(t);
      expectProblem(refused, 401, "invalid_token");
    }
    expectInvalidClient(await clientCredentials(client));
    for (const rt of [first.refresh_token, refreshed.json.refresh_token]) {
      const again = await token({
        grant_type: "refresh_token",
        refresh_token: rt,
        client_id: client.client_id,
        client_secret: client.client_secret,
      });
      expect(again.status).toBeGreaterThanOrEqual(400);
      expect(again.json).not.toHaveProperty("access_token");
    }
    expectProblem(await call(`/v1/oauth-clients/${client.id}`), 404, "not_found");
  });

  it("leaves other clients' tokens alone", async () => {
    const [doomed, other] = await Promise.all([createClient(), createClient()]);
    const [, kept] = await Promise.all([tokensFor(doomed), tokensFor(other)]);
    expect((await call(`/v1/oauth-clients/${doomed.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await verify(kept.access_token)).status).toBe(200);
  });

  it("deleting twice → 404 the second time", async () => {
    const client = await createClient();
    expect((await call(`/v1/oauth-clients/${client.id}`, { method: "DELETE" })).status).toBe(204);
    expectProblem(await call(`/v1/oauth-clients/${client.id}`, { method: "DELETE" }), 404, "not_found");
  });

  it("unknown or malformed id → 404", async () => {
    expectProblem(await call(MISSING, { method: "DELETE" }), 404, "not_found");
    expectProblem(await call("/v1/oauth-clients/nope", { method: "DELETE" }), 404, "not_found");
  });

  it("needs admin, and a refused delete changes nothing", async () => {
    const client = await createClient();
    const tokens = await tokensFor(client);
    await expectNeedsAdmin(`/v1/oauth-clients/${client.id}`, { method: "DELETE" });
    expect((await verify(tokens.access_token)).status).toBe(200);
  });
});
