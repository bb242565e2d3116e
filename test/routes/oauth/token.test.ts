import { env } from "cloudflare:workers";
import * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../src/lib/crypto";
import { BASE } from "../../support/call";
import {
  basic,
  clientAuth,
  clientCredentials,
  expectOAuthError,
  formUrlEncode,
  http,
  oauthErrorOf,
  plaintexts,
  post,
  refresh,
  seedClient,
  workerFetch,
} from "../../support/oauth-helpers";
import { ACCESS_TOKEN, as, client, introspect, other, READ, REFRESH_TOKEN, useServerAndClients, verify } from "./fixtures";

useServerAndClients();

describe("POST /oauth/token, grant_type=client_credentials", () => {
  it("with HTTP Basic → 200 Bearer token with all the client's scopes, never cached", async () => {
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      { client_id: client.client_id },
      clientAuth(client, "basic"),
      {},
      http,
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("pragma")).toBe("no-cache");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const tokens = await oauth.processClientCredentialsResponse(as, { client_id: client.client_id }, response);
    plaintexts.add(tokens.access_token).add(tokens.refresh_token!);
    expect(tokens).toEqual({
      access_token: expect.stringMatching(ACCESS_TOKEN),
      token_type: "bearer", // oauth4webapi lower-cases it; the wire says "Bearer" (next test)
      expires_in: 3600,
      scope: "quizzes:read users:read",
      refresh_token: expect.stringMatching(REFRESH_TOKEN),
    });
  });

  it("with client_id and client_secret in the body → 200, token_type Bearer on the wire", async () => {
    const res = await post("/oauth/token", { grant_type: "client_credentials", ...client });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      access_token: expect.stringMatching(ACCESS_TOKEN),
      token_type: "Bearer",
      expires_in: 3600,
      scope: "quizzes:read users:read",
      refresh_token: expect.stringMatching(REFRESH_TOKEN),
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
    const viaLibrary = await clientCredentials(as, client, { method: "post" });
    expect(viaLibrary.access_token).toMatch(ACCESS_TOKEN);
  });

  it("accepts a JSON body too", async () => {
    const res = await post("/oauth/token", JSON.stringify({ grant_type: "client_credentials", scope: "users:read", ...client }), {
      "content-type": "application/json",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.scope).toBe("users:read");
  });

  it("the access token authenticates on /v1 as Authorization: Bearer", async () => {
    const tokens = await clientCredentials(as, client);
    const res = await verify(tokens.access_token);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      status: "success",
      message: "Authentication successful",
      credential: { type: "access_token", id: client.client_id, scopes: READ, expires_at: expect.any(String) },
    });
    const expiresIn = (Date.parse(res.json.credential.expires_at!) - Date.now()) / 1000;
    expect(expiresIn).toBeGreaterThan(3590);
    expect(expiresIn).toBeLessThanOrEqual(3600);
  });

  it("down-scopes: a subset of the client's scopes → a token with just that subset", async () => {
    const tokens = await clientCredentials(as, client, { scope: "users:read" });
    expect(tokens.scope).toBe("users:read");
    expect((await verify(tokens.access_token)).json.credential.scopes).toEqual(["users:read"]);
    // Repeats and extra spaces are forgiven.
    expect((await clientCredentials(as, client, { scope: " users:read  users:read " })).scope).toBe("users:read");
  });

  it("a scope the client lacks → 400 invalid_scope", async () => {
    expect(await oauthErrorOf(clientCredentials(as, client, { scope: "users:read quizzes:write" }))).toEqual({
      error: "invalid_scope",
      status: 400,
    });
    expectOAuthError(
      await post("/oauth/token", { grant_type: "client_credentials", scope: "admin", ...client }),
      400,
      "invalid_scope",
    );
    expectOAuthError(
      await post("/oauth/token", { grant_type: "client_credentials", scope: "   ", ...client }),
      400,
      "invalid_scope",
    );
  });

  it("an empty scope parameter counts as omitted (RFC 6749 §3.2)", async () => {
    const res = await post("/oauth/token", { grant_type: "client_credentials", scope: "", ...client });
    expect(res.status, res.text).toBe(200);
    expect(res.json.scope).toBe("quizzes:read users:read");
  });
});

describe("POST /oauth/token, grant_type=refresh_token", () => {
  it("rotates: a new access and refresh token, and the new refresh token works", async () => {
    const first = await clientCredentials(as, client);
    const second = await refresh(as, client, first.refresh_token!);
    expect(second.access_token).toMatch(ACCESS_TOKEN);
    expect(second.refresh_token).toMatch(REFRESH_TOKEN);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.scope).toBe("quizzes:read users:read");
    expect((await verify(second.access_token)).status).toBe(200);
    const third = await refresh(as, client, second.refresh_token!, { method: "post" });
    expect((await verify(third.access_token)).status).toBe(200);
  });

  it("the previous refresh token stays valid until the new one is used (a lost answer can be retried)", async () => {
    const first = await clientCredentials(as, client);
    const second = await refresh(as, client, first.refresh_token!);
    const retried = await refresh(as, client, first.refresh_token!); // the client never saw `second`
    expect(retried.refresh_token).not.toBe(second.refresh_token);
    const next = await refresh(as, client, retried.refresh_token!);
    expect((await verify(next.access_token)).status).toBe(200);
  });

  it("reuse of a superseded refresh token → invalid_grant, and the whole family is revoked", async () => {
    const first = await clientCredentials(as, client);
    const second = await refresh(as, client, first.refresh_token!);
    const third = await refresh(as, client, second.refresh_token!); // first is now superseded
    expect((await verify(third.access_token)).status).toBe(200);

    expect(await oauthErrorOf(refresh(as, client, first.refresh_token!))).toEqual({ error: "invalid_grant", status: 400 });

    expect(await oauthErrorOf(refresh(as, client, third.refresh_token!))).toEqual({ error: "invalid_grant", status: 400 });
    for (const tokens of [first, second, third]) {
      expect((await verify(tokens.access_token)).status).toBe(401);
      expect((await introspect(client, tokens.access_token)).active).toBe(false);
    }
    expect((await introspect(client, third.refresh_token!)).active).toBe(false);
  });

  it("may narrow the scope; may not widen it past the grant", async () => {
    const narrow = await clientCredentials(as, client, { scope: "users:read" });
    expect(await oauthErrorOf(refresh(as, client, narrow.refresh_token!, { scope: "quizzes:read" }))).toEqual({
      error: "invalid_scope",
      status: 400,
    });
    const wide = await clientCredentials(as, client);
    const narrowed = await refresh(as, client, wide.refresh_token!, { scope: "quizzes:read" });
    expect(narrowed.scope).toBe("quizzes:read");
    expect((await verify(narrowed.access_token)).json.credential.scopes).toEqual(["quizzes:read"]);
  });

  it("a client that lost scopes since the grant cannot renew them", async () => {
    const shrinking = await seedClient(READ);
    const a = await clientCredentials(as, shrinking);
    const b = await clientCredentials(as, shrinking);
    await env.DB.prepare("UPDATE oauth_clients SET scopes = ? WHERE id = ?")
      .bind(JSON.stringify(["users:read"]), shrinking.client_id)
      .run();

    expect(await oauthErrorOf(refresh(as, shrinking, a.refresh_token!, { scope: "quizzes:read" }))).toEqual({
      error: "invalid_scope",
      status: 400,
    });
    // Asking for what is left still works.
    expect((await refresh(as, shrinking, a.refresh_token!, { scope: "users:read" })).scope).toBe("users:read");
    // Asking for the whole grant again voids the grant.
    expect(await oauthErrorOf(refresh(as, shrinking, b.refresh_token!))).toEqual({ error: "invalid_grant", status: 400 });
    expect(await oauthErrorOf(refresh(as, shrinking, b.refresh_token!, { scope: "users:read" }))).toEqual({
      error: "invalid_grant",
      status: 400,
    });
    expect((await clientCredentials(as, shrinking)).scope).toBe("users:read");
  });

  it("another client's refresh token → invalid_grant, and the owner's grant is untouched", async () => {
    const mine = await clientCredentials(as, client);
    expect(await oauthErrorOf(refresh(as, other, mine.refresh_token!))).toEqual({ error: "invalid_grant", status: 400 });
    expect((await refresh(as, client, mine.refresh_token!)).access_token).toMatch(ACCESS_TOKEN);
  });

  it("an expired refresh token → invalid_grant", async () => {
    const tokens = await clientCredentials(as, client);
    const expired = await env.DB.prepare("UPDATE oauth_refresh_tokens SET expires_at = ? WHERE hash = ?")
      .bind(Math.floor(Date.now() / 1000) - 1, await sha256Hex(tokens.refresh_token!))
      .run();
    expect(expired.meta.changes).toBe(1);
    expectOAuthError(
      await post(
        "/oauth/token",
        { grant_type: "refresh_token", refresh_token: tokens.refresh_token! },
        { Authorization: basic(client.client_id, client.client_secret) },
      ),
      400,
      "invalid_grant",
    );
  });

  it("an unknown or malformed refresh token → invalid_grant; a missing one → invalid_request", async () => {
    const auth = { Authorization: basic(client.client_id, client.client_secret) };
    for (const refresh_token of [`qz_rt_${"A".repeat(43)}`, "garbage"]) {
      expectOAuthError(await post("/oauth/token", { grant_type: "refresh_token", refresh_token }, auth), 400, "invalid_grant");
    }
    expectOAuthError(await post("/oauth/token", { grant_type: "refresh_token" }, auth), 400, "invalid_request");
  });
});

describe("POST /oauth/token errors (RFC 6749 §5.2)", () => {
  const auth = () => ({ Authorization: basic(client.client_id, client.client_secret) });

  it("missing grant_type → 400 invalid_request (an empty one counts as missing)", async () => {
    expectOAuthError(await post("/oauth/token", {}, auth()), 400, "invalid_request");
    expectOAuthError(await post("/oauth/token", { grant_type: "" }, auth()), 400, "invalid_request");
  });

  it("a grant type other than client_credentials or refresh_token → 400 unsupported_grant_type", async () => {
    for (const grant_type of ["password", "authorization_code", "CLIENT_CREDENTIALS"]) {
      expectOAuthError(
        await post("/oauth/token", { grant_type, username: "u", password: "p" }, auth()),
        400,
        "unsupported_grant_type",
      );
    }
  });

  it("a wrong secret → 401 invalid_client with WWW-Authenticate: Basic, by either method", async () => {
    expectOAuthError(
      await post(
        "/oauth/token",
        { grant_type: "client_credentials" },
        { Authorization: basic(client.client_id, `${client.client_secret}x`) },
      ),
      401,
      "invalid_client",
    );
    expectOAuthError(
      await post("/oauth/token", {
        grant_type: "client_credentials",
        client_id: client.client_id,
        client_secret: other.client_secret,
      }),
      401,
      "invalid_client",
    );
    // oauth4webapi sees the challenge.
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      { client_id: client.client_id },
      oauth.ClientSecretBasic("nope"),
      {},
      http,
    );
    await expect(oauth.processClientCredentialsResponse(as, { client_id: client.client_id }, response)).rejects.toBeInstanceOf(
      oauth.WWWAuthenticateChallengeError,
    );
  });

  it("an unknown client, a malformed client id, or no client authentication → 401 invalid_client", async () => {
    for (const id of ["cli_01kamz3f7c9n0p8s6e5vwx2y4r", "cli_nope", "key_01kamz3f7c9n0p8s6e5vwx2y4r", "' OR 1=1 --"]) {
      expectOAuthError(
        await post("/oauth/token", { grant_type: "client_credentials" }, { Authorization: basic(id, client.client_secret) }),
        401,
        "invalid_client",
      );
      expectOAuthError(
        await post("/oauth/token", { grant_type: "client_credentials", client_id: id, client_secret: client.client_secret }),
        401,
        "invalid_client",
      );
    }
    expectOAuthError(await post("/oauth/token", { grant_type: "client_credentials" }), 401, "invalid_client");
    expectOAuthError(
      await post("/oauth/token", { grant_type: "client_credentials", client_id: client.client_id }),
      401,
      "invalid_client",
    );
    for (const header of ["Bearer abc", "Basic", "Basic !!!", `Basic ${btoa("no-colon")}`]) {
      expectOAuthError(
        await post("/oauth/token", { grant_type: "client_credentials" }, { Authorization: header }),
        401,
        "invalid_client",
      );
    }
  });

  it("Basic and body credentials at once → 400 invalid_request", async () => {
    expectOAuthError(await post("/oauth/token", { grant_type: "client_credentials", ...client }, auth()), 400, "invalid_request");
    expectOAuthError(
      await post("/oauth/token", { grant_type: "client_credentials", client_secret: client.client_secret }, auth()),
      400,
      "invalid_request",
    );
    expectOAuthError(
      await post("/oauth/token", { grant_type: "client_credentials", client_id: other.client_id }, auth()),
      400,
      "invalid_request",
    );
    // Naming the same client in the body is allowed (RFC 6749 §3.2.1).
    expect((await post("/oauth/token", { grant_type: "client_credentials", client_id: client.client_id }, auth())).status).toBe(
      200,
    );
  });

  it("a parameter sent twice → 400 invalid_request", async () => {
    const form = `grant_type=client_credentials&scope=users%3Aread&scope=quizzes%3Aread`;
    expectOAuthError(await post("/oauth/token", form, auth()), 400, "invalid_request");
    expectOAuthError(
      await post("/oauth/token", "grant_type=client_credentials&grant_type=client_credentials", auth()),
      400,
      "invalid_request",
    );
    const id = encodeURIComponent(client.client_id);
    const secret = encodeURIComponent(client.client_secret);
    expectOAuthError(
      await post("/oauth/token", `grant_type=client_credentials&client_id=${id}&client_id=${id}&client_secret=${secret}`),
      400,
      "invalid_request",
    );
  });

  it("a body that is neither form nor JSON, or is malformed → 400 invalid_request, not a problem body", async () => {
    const form = `grant_type=client_credentials`;
    for (const type of ["text/plain", "multipart/form-data; boundary=x", "application/xml"]) {
      expectOAuthError(await post("/oauth/token", form, { ...auth(), "content-type": type }), 400, "invalid_request");
    }
    expectOAuthError(
      await post("/oauth/token", "{not json", { ...auth(), "content-type": "application/json" }),
      400,
      "invalid_request",
    );
    expectOAuthError(await post("/oauth/token", "[]", { ...auth(), "content-type": "application/json" }), 400, "invalid_request");
    expectOAuthError(
      await post("/oauth/token", JSON.stringify({ grant_type: ["client_credentials"] }), {
        ...auth(),
        "content-type": "application/json",
      }),
      400,
      "invalid_request",
    );
    expectOAuthError(await post("/oauth/token", `grant_type=${"x".repeat(20_000)}`, auth()), 413, "invalid_request");
  });

  it("a wrong method → 405 with Allow: POST, as an OAuth error", async () => {
    const res = await workerFetch(`${BASE}/oauth/token`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });

  it("Basic credentials are url-encoded before base64 (RFC 6749 §2.3.1)", async () => {
    const special = await seedClient(["users:read"], "s3cr+t/with:colon%25&=é ü~*");
    const encoded = basic(special.client_id, special.client_secret);
    expect(formUrlEncode("a b+c:é")).toBe("a+b%2Bc%3A%C3%A9");
    const ok = await post("/oauth/token", { grant_type: "client_credentials" }, { Authorization: encoded });
    expect(ok.status, ok.text).toBe(200);
    // oauth4webapi encodes the same way.
    expect((await clientCredentials(as, special)).scope).toBe("users:read");
    // Not url-encoded: "+" would mean a space and "%25" a "%", so the secret is wrong.
    const raw = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${special.client_id}:${special.client_secret}`)))}`;
    expectOAuthError(
      await post("/oauth/token", { grant_type: "client_credentials" }, { Authorization: raw }),
      401,
      "invalid_client",
    );
    // A client id sent with its "_" percent-encoded (as oauth4webapi does) is the same id.
    const allEncoded = `Basic ${btoa(`cli%5F${special.client_id.slice(4)}:${formUrlEncode(special.client_secret)}`)}`;
    expect((await post("/oauth/token", { grant_type: "client_credentials" }, { Authorization: allEncoded })).status).toBe(200);
  });
});

describe("secrets at rest", () => {
  it("KV and D1 hold no plaintext token or client secret, only their SHA-256", async () => {
    expect(plaintexts.size).toBeGreaterThan(50);
    const stored: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await env.KV.list({ cursor });
      for (const { name } of page.keys) stored.push(name, (await env.KV.get(name)) ?? "");
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
    expect(stored.length).toBeGreaterThan(50);
    const rows = await env.DB.prepare("SELECT * FROM oauth_clients").all();
    expect(rows.results.length).toBeGreaterThan(2);
    stored.push(...rows.results.map((row) => JSON.stringify(row)));
    // The grants, refresh tokens and access tokens recorded in D1.
    for (const table of ["oauth_token_families", "oauth_refresh_tokens", "oauth_access_tokens"]) {
      const tokenRows = await env.DB.prepare(`SELECT * FROM ${table}`).all();
      expect(tokenRows.results.length, table).toBeGreaterThan(10);
      stored.push(...tokenRows.results.map((row) => JSON.stringify(row)));
    }

    const everything = stored.join("\n");
    for (const secret of plaintexts) expect(everything.includes(secret), "a plaintext secret is stored").toBe(false);
    // Nor any token-shaped or secret-shaped string at all.
    expect(everything).not.toMatch(/qz_(at|rt|cs)_[0-9A-Za-z]{20}/);

    const row = rows.results.find((r) => r.id === client.client_id);
    expect(row?.secret_hash).toBe(await sha256Hex(client.client_secret));
  });
});
