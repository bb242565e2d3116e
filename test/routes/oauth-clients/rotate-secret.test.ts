import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import {
  clientCredentials,
  createClient,
  expectInvalidClient,
  expectNeedsAdmin,
  ISO_MS,
  MISSING,
  SECRET,
  token,
  tokensFor,
  verify,
} from "./fixtures";

describe("POST /v1/oauth-clients/{id}/rotate-secret", () => {
  it("gives a new secret; the old one no longer authenticates at /oauth/token", async () => {
    const client = await createClient();
    const before = await tokensFor(client);
    await new Promise((r) => setTimeout(r, 5));
    const res = await call(`/v1/oauth-clients/${client.id}/rotate-secret`, { method: "POST" });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      id: client.id,
      client_id: client.id,
      name: client.name,
      scopes: client.scopes,
      created_at: client.created_at,
    });
    expect(res.json.client_secret).toMatch(SECRET);
    expect(res.json.client_secret).not.toBe(client.client_secret);
    expect(res.json.secret_rotated_at).toMatch(ISO_MS);
    expect(res.json.updated_at > client.updated_at).toBe(true);

    expectInvalidClient(await clientCredentials(client));
    expectInvalidClient(
      await token({
        grant_type: "refresh_token",
        refresh_token: before.refresh_token,
        client_id: client.client_id,
        client_secret: client.client_secret,
      }),
    );
    const fresh = await tokensFor({ client_id: client.id, client_secret: res.json.client_secret });
    expect((await verify(fresh.access_token)).status).toBe(200);
    // Rotating with no grace revokes every token issued under the old secret (docs/security.md).
    expect((await verify(before.access_token)).status).toBe(401);
    const refreshed = await token({
      grant_type: "refresh_token",
      refresh_token: before.refresh_token,
      client_id: client.id,
      client_secret: res.json.client_secret,
    });
    expect(refreshed.status, refreshed.text).toBe(400);
    expect(refreshed.problem.error).toBe("invalid_grant");

    const got = await call(`/v1/oauth-clients/${client.id}`);
    expect(got.json).not.toHaveProperty("client_secret");
    expect(got.json.secret_rotated_at).toBe(res.json.secret_rotated_at);
  });

  it("unknown or malformed id → 404", async () => {
    expectProblem(await call(`${MISSING}/rotate-secret`, { method: "POST" }), 404, "not_found");
    expectProblem(await call("/v1/oauth-clients/nope/rotate-secret", { method: "POST" }), 404, "not_found");
  });

  it("needs admin, and a refused rotation changes nothing", async () => {
    const client = await createClient();
    await expectNeedsAdmin(`/v1/oauth-clients/${client.id}/rotate-secret`, { method: "POST" });
    await tokensFor(client);
  });
});
