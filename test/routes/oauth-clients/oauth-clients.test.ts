import { describe, expect, it } from "vitest";
import { SCOPES } from "../../../src/lib/scopes";
import { call, expectProblem, seedApiKey } from "../../helpers";

const CLIENT_ID = /^cli_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
const SECRET = /^qz_cs_[0-9A-Za-z]{43}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING = "/v1/oauth-clients/cli_01kamz3f7c9n0p8s6e5vwx2y4r";

async function createClient(body: Record<string, unknown> = {}) {
  const res = await call("/v1/oauth-clients", { body: { name: "exporter", scopes: ["quizzes:read", "users:read"], ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

const randomIp = () => `10.${[...crypto.getRandomValues(new Uint8Array(3))].join(".")}`;

/** POST /oauth/token with form parameters, from a fresh client IP (the endpoint is limited per IP). */
const token = (params: Record<string, string>) =>
  call("/oauth/token", {
    auth: false,
    raw: new URLSearchParams(params),
    headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": randomIp() },
  });

const clientCredentials = (client: { client_id: string; client_secret: string }, scope?: string) =>
  token({
    grant_type: "client_credentials",
    client_id: client.client_id,
    client_secret: client.client_secret,
    ...(scope ? { scope } : {}),
  });

async function tokensFor(client: { client_id: string; client_secret: string }) {
  const res = await clientCredentials(client);
  expect(res.status, res.text).toBe(200);
  return res.json as { access_token: string; refresh_token: string; scope: string };
}

function expectInvalidClient(res: Awaited<ReturnType<typeof call>>) {
  expect(res.status, res.text).toBe(401);
  expect(res.json.error).toBe("invalid_client");
}

const verify = (accessToken: string) => call("/v1/auth/verify", { auth: accessToken });

/** A key with every scope but admin. */
const nonAdmin = () => seedApiKey(SCOPES.filter((s) => s !== "admin")).then((k) => k.key);

async function expectNeedsAdmin(path: string, options: { method?: string; body?: unknown } = {}) {
  const res = await call(path, { ...options, auth: await nonAdmin() });
  expectProblem(res, 403, "insufficient_scope");
  expect(res.headers.get("www-authenticate")).toContain('scope="admin"');
  expectProblem(await call(path, { ...options, auth: false }), 401, "unauthorized");
}

describe("POST /v1/oauth-clients", () => {
  it("registers a client → 201, Location, client_secret shown this once", async () => {
    const res = await call("/v1/oauth-clients", { body: { name: " exporter ", scopes: ["analytics:read"] } });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(CLIENT_ID),
      client_id: res.json.id,
      name: "exporter",
      scopes: ["analytics:read"],
      created_at: expect.stringMatching(ISO_MS),
      updated_at: res.json.created_at,
      secret_rotated_at: null,
      client_secret: expect.stringMatching(SECRET),
    });
    expect(res.headers.get("location")).toBe(`/v1/oauth-clients/${res.json.id}`);
  });

  it("the secret gets tokens at /oauth/token, with the client's scopes", async () => {
    const client = await createClient({ scopes: ["users:read", "quizzes:read"] });
    const tokens = await tokensFor(client);
    expect(tokens.scope.split(" ").sort()).toEqual(["quizzes:read", "users:read"]);
    const verified = await verify(tokens.access_token);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.json.credential).toMatchObject({ type: "access_token", id: client.id });
    const basic = await call("/oauth/token", {
      auth: false,
      raw: new URLSearchParams({ grant_type: "client_credentials", scope: "users:read" }),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "cf-connecting-ip": randomIp(),
        authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`,
      },
    });
    expect(basic.status, basic.text).toBe(200);
    expect(basic.json.scope).toBe("users:read");
  });

  it("an unknown scope, no scopes, or a scope twice → 400 naming scopes", async () => {
    for (const scopes of [["quizzes:delete"], [], ["users:read", "users:read"], "admin", undefined]) {
      const problem = expectProblem(await call("/v1/oauth-clients", { body: { name: "x", scopes } }), 400, "validation_failed");
      expect(problem.errors?.[0]?.path, JSON.stringify(scopes)).toMatch(/^scopes/);
    }
  });

  it("a missing, blank or too-long name → 400", async () => {
    for (const name of [undefined, " ", "n".repeat(201)]) {
      const problem = expectProblem(
        await call("/v1/oauth-clients", { body: { name, scopes: ["admin"] } }),
        400,
        "validation_failed",
      );
      expect(problem.errors?.map((e) => e.path)).toEqual(["name"]);
    }
  });

  it("an unknown field → 400 naming it (the secret cannot be chosen by the caller)", async () => {
    const problem = expectProblem(
      await call("/v1/oauth-clients", { body: { name: "x", scopes: ["admin"], client_secret: "qz_cs_mine" } }),
      400,
    );
    expect(problem.errors).toContainEqual({ path: "client_secret", message: expect.any(String) });
  });

  it("needs admin", async () => {
    await expectNeedsAdmin("/v1/oauth-clients", { body: { name: "x", scopes: ["quizzes:read"] } });
  });
});

describe("GET /v1/oauth-clients", () => {
  it("lists clients without their secrets, paginated by cursor", async () => {
    const created = await Promise.all([createClient(), createClient(), createClient()]);
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call(`/v1/oauth-clients?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.oauth_clients.length).toBeLessThanOrEqual(2);
      if (res.json.next_cursor) expect(res.headers.get("link")).toContain('rel="next"');
      seen.push(...res.json.oauth_clients);
      cursor = res.json.next_cursor;
      pages++;
    } while (cursor && pages < 100);
    const ids = seen.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort());
    for (const c of created) expect(ids).toContain(c.id);
    for (const c of seen) {
      expect(c).not.toHaveProperty("client_secret");
      expect(JSON.stringify(c)).not.toMatch(/qz_cs_/);
    }
  });

  it("a bad cursor or limit → 400", async () => {
    for (const query of ["limit=0", "limit=101", "cursor=nope"])
      expectProblem(await call(`/v1/oauth-clients?${query}`), 400, "validation_failed");
  });

  it("needs admin", async () => {
    await expectNeedsAdmin("/v1/oauth-clients");
  });
});

describe("GET /v1/oauth-clients/{id}", () => {
  it("→ 200, without the secret", async () => {
    const { client_secret, ...client } = await createClient();
    const res = await call(`/v1/oauth-clients/${client.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(client);
    expect(res.text).not.toContain(client_secret);
  });

  it("unknown or malformed id → 404", async () => {
    expectProblem(await call(MISSING), 404, "not_found");
    expectProblem(await call("/v1/oauth-clients/nope"), 404, "not_found");
    expectProblem(await call("/v1/oauth-clients/key_01kamz3f7c9n0p8s6e5vwx2y4r"), 404, "not_found");
  });

  it("needs admin", async () => {
    await expectNeedsAdmin(`/v1/oauth-clients/${(await createClient()).id}`);
  });
});

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
    // Rotating with no grace revokes every token issued under the old secret (CONTRACT §6).
    expect((await verify(before.access_token)).status).toBe(401);
    const refreshed = await token({
      grant_type: "refresh_token",
      refresh_token: before.refresh_token,
      client_id: client.id,
      client_secret: res.json.client_secret,
    });
    expect(refreshed.status, refreshed.text).toBe(400);
    expect(refreshed.json.error).toBe("invalid_grant");

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

describe("non-admin credentials", () => {
  it("an access token without admin → 403 on every /v1/oauth-clients endpoint", async () => {
    const issuer = await createClient({ scopes: SCOPES.filter((s) => s !== "admin") });
    const { access_token } = await tokensFor(issuer);
    const { id } = await createClient();
    const attempts: [string, string, unknown?][] = [
      ["GET", "/v1/oauth-clients"],
      ["POST", "/v1/oauth-clients", { name: "x", scopes: ["admin"] }],
      ["GET", `/v1/oauth-clients/${id}`],
      ["POST", `/v1/oauth-clients/${id}/rotate-secret`],
      ["DELETE", `/v1/oauth-clients/${id}`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(path, { method, body, auth: access_token });
      expect(res.status, `${method} ${path}`).toBe(403);
      expectProblem(res, 403, "insufficient_scope");
    }
  });
});
