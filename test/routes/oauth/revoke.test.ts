import { describe, expect, it } from "vitest";
import { basic, clientCredentials, expectOAuthError, oauthErrorOf, post, refresh } from "../../support/oauth-helpers";
import { ACCESS_TOKEN, as, client, introspect, other, revoke, useServerAndClients, verify } from "./fixtures";

useServerAndClients();

describe("POST /oauth/revoke", () => {
  it("revokes an access token: it stops working on /v1 and in introspection", async () => {
    const tokens = await clientCredentials(as, client);
    expect((await verify(tokens.access_token)).status).toBe(200);
    await revoke(client, tokens.access_token);
    expect((await verify(tokens.access_token)).status).toBe(401);
    expect((await introspect(client, tokens.access_token)).active).toBe(false);
    // The refresh token lives on.
    expect((await refresh(as, client, tokens.refresh_token!)).access_token).toMatch(ACCESS_TOKEN);
  });

  it("revokes a refresh token and with it the grant's access tokens", async () => {
    const tokens = await clientCredentials(as, client);
    await revoke(client, tokens.refresh_token!, "post");
    expect(await oauthErrorOf(refresh(as, client, tokens.refresh_token!))).toEqual({ error: "invalid_grant", status: 400 });
    expect((await verify(tokens.access_token)).status).toBe(401);
  });

  it("answers 200 for an unknown token and for another client's, which it leaves alone", async () => {
    await revoke(client, "garbage");
    await revoke(client, `qz_at_${"A".repeat(43)}`);
    const theirs = await clientCredentials(as, other);
    await revoke(client, theirs.access_token);
    await revoke(client, theirs.refresh_token!);
    expect((await verify(theirs.access_token)).status).toBe(200);
    expect((await refresh(as, other, theirs.refresh_token!)).access_token).toMatch(ACCESS_TOKEN);
  });

  it("needs client authentication and a token", async () => {
    expectOAuthError(await post("/oauth/revoke", { token: "x" }), 401, "invalid_client");
    expectOAuthError(
      await post("/oauth/revoke", { token: "x" }, { Authorization: basic(client.client_id, "wrong") }),
      401,
      "invalid_client",
    );
    expectOAuthError(
      await post("/oauth/revoke", {}, { Authorization: basic(client.client_id, client.client_secret) }),
      400,
      "invalid_request",
    );
    expectOAuthError(
      await post("/oauth/revoke", "token=a&token=b", { Authorization: basic(client.client_id, client.client_secret) }),
      400,
      "invalid_request",
    );
  });
});
