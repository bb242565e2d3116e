import { describe, expect, it } from "vitest";
import { basic, clientCredentials, expectOAuthError, post } from "../../support/oauth-helpers";
import { as, client, introspect, other, revoke, useServerAndClients } from "./fixtures";

useServerAndClients();

describe("POST /oauth/introspect", () => {
  it("describes the client's own access and refresh tokens; never cached", async () => {
    const tokens = await clientCredentials(as, client, { scope: "users:read" });
    const now = Math.floor(Date.now() / 1000);
    expect(await introspect(client, tokens.access_token)).toEqual({
      active: true,
      scope: "users:read",
      client_id: client.client_id,
      token_type: "Bearer",
      exp: expect.any(Number),
      iat: expect.any(Number),
    });
    const access = await introspect(client, tokens.access_token);
    expect(access.exp! - access.iat!).toBe(3600);
    expect(Math.abs(access.iat! - now)).toBeLessThanOrEqual(5);
    expect(await introspect(client, tokens.refresh_token!)).toEqual({
      active: true,
      scope: "users:read",
      client_id: client.client_id,
      exp: expect.any(Number),
      iat: expect.any(Number),
    });

    const res = await post(
      "/oauth/introspect",
      { token: tokens.access_token },
      { Authorization: basic(client.client_id, client.client_secret) },
    );
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("is inactive for another client's token, a revoked token and garbage", async () => {
    const theirs = await clientCredentials(as, other);
    expect(await introspect(client, theirs.access_token)).toEqual({ active: false });
    expect(await introspect(client, theirs.refresh_token!)).toEqual({ active: false });
    expect((await introspect(other, theirs.access_token)).active).toBe(true);

    const mine = await clientCredentials(as, client);
    await revoke(client, mine.access_token);
    expect(await introspect(client, mine.access_token)).toEqual({ active: false });

    for (const garbage of ["garbage", `qz_at_${"A".repeat(43)}`, `qz_rt_${"A".repeat(43)}`, client.client_secret]) {
      expect(await introspect(client, garbage)).toEqual({ active: false });
    }
  });

  it("needs client authentication and a token", async () => {
    expectOAuthError(await post("/oauth/introspect", { token: "x" }), 401, "invalid_client");
    expectOAuthError(
      await post("/oauth/introspect", { token: "x", client_id: client.client_id, client_secret: "wrong" }),
      401,
      "invalid_client",
    );
    expectOAuthError(
      await post("/oauth/introspect", { client_id: client.client_id, client_secret: client.client_secret }),
      400,
      "invalid_request",
    );
  });
});

// Last: by now the flows above have left tokens of every kind in KV.
