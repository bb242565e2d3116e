import { describe, expect, it } from "vitest";
import { API_KEY_PREFIX, isWellFormedApiKey } from "../../../src/domain/credential-format";
import { SCOPES } from "../../../src/lib/scopes";
import { call, expectProblem, seedApiKey } from "../../helpers";

const KEY_ID = /^key_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
const KEY = /^qz_live_[0-9A-Za-z]{38}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING = "/v1/api-keys/key_01kamz3f7c9n0p8s6e5vwx2y4r";
const DAY_MS = 86_400_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function createKey(body: Record<string, unknown> = {}) {
  const res = await call("/v1/api-keys", { body: { name: "grader", scopes: ["quizzes:read"], ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** GET /v1/auth/verify with the key: 200 when it authenticates. */
const verify = (key: string, form: "bearer" | "x-api-key" = "bearer") =>
  call("/v1/auth/verify", form === "bearer" ? { auth: key } : { auth: false, headers: { "x-api-key": key } });

async function expectRefused(key: string) {
  const res = await verify(key);
  expectProblem(res, 401, "invalid_token");
  expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
}

async function rotate(id: string, body?: unknown) {
  const res = await call(`/v1/api-keys/${id}/rotate`, body === undefined ? { method: "POST" } : { body });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** A key with every scope but admin: it may do anything except manage keys and clients. */
const nonAdmin = () => seedApiKey(SCOPES.filter((s) => s !== "admin")).then((k) => k.key);

async function expectNeedsAdmin(path: string, options: { method?: string; body?: unknown } = {}) {
  const res = await call(path, { ...options, auth: await nonAdmin() });
  expectProblem(res, 403, "insufficient_scope");
  expect(res.headers.get("www-authenticate")).toContain('scope="admin"');
  expectProblem(await call(path, { ...options, auth: false }), 401, "unauthorized");
}

describe("POST /v1/api-keys", () => {
  it("creates a key → 201, Location, the key shown this once", async () => {
    const res = await call("/v1/api-keys", { body: { name: " grader ", scopes: ["quizzes:read", "submissions:write"] } });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(KEY_ID),
      name: "grader",
      key: expect.stringMatching(KEY),
      prefix: res.json.key.slice(0, API_KEY_PREFIX.length + 4),
      scopes: ["quizzes:read", "submissions:write"],
      created_at: expect.stringMatching(ISO_MS),
      expires_at: null,
      revoked_at: null,
      rotated_to: null,
      last_used_at: null,
    });
    expect(res.headers.get("location")).toBe(`/v1/api-keys/${res.json.id}`);
    expect(isWellFormedApiKey(res.json.key)).toBe(true);
  });

  it("the key authenticates at once, with its scopes", async () => {
    const created = await createKey({ scopes: ["users:read"] });
    const res = await verify(created.key, "x-api-key");
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      status: "success",
      message: "Authentication successful",
      credential: { type: "api_key", id: created.id, scopes: ["users:read"], expires_at: null },
    });
    expect((await call("/v1/users", { auth: created.key })).status).toBe(200);
    expectProblem(await call("/v1/quizzes", { auth: created.key }), 403, "insufficient_scope");
  });

  it("each key is different", async () => {
    const keys = await Promise.all([createKey(), createKey(), createKey()]);
    expect(new Set(keys.map((k) => k.key)).size).toBe(3);
  });

  it("an expiry in the future is kept, as ISO 8601 with milliseconds", async () => {
    const at = new Date(Date.now() + DAY_MS).toISOString();
    const created = await createKey({ expires_at: at });
    expect(created.expires_at).toBe(at);
    expect((await verify(created.key)).json.credential.expires_at).toBe(at);
    const noMs = await createKey({ expires_at: "2099-01-01T00:00:00Z" });
    expect(noMs.expires_at).toBe("2099-01-01T00:00:00.000Z");
    expect((await createKey({ expires_at: null })).expires_at).toBeNull();
  });

  it("an expiry in the past, or not a UTC timestamp → 400 naming expires_at", async () => {
    for (const bad of [new Date(Date.now() - 1000).toISOString(), "2020-01-01T00:00:00.000Z", "tomorrow", "2099-01-01", 42]) {
      const problem = expectProblem(
        await call("/v1/api-keys", { body: { name: "x", scopes: ["admin"], expires_at: bad } }),
        400,
        "validation_failed",
      );
      expect(
        problem.errors?.map((e) => e.path),
        String(bad),
      ).toEqual(["expires_at"]);
    }
  });

  it("an unknown scope, no scopes, or a scope twice → 400 naming scopes", async () => {
    for (const scopes of [["quizzes:delete"], [], ["users:read", "users:read"], "admin", [42], ["Admin"]]) {
      const problem = expectProblem(await call("/v1/api-keys", { body: { name: "x", scopes } }), 400, "validation_failed");
      expect(problem.errors?.[0]?.path, JSON.stringify(scopes)).toMatch(/^scopes/);
    }
    expectProblem(await call("/v1/api-keys", { body: { name: "x" } }), 400, "validation_failed");
  });

  it("a missing, blank or too-long name → 400", async () => {
    for (const name of [undefined, "  ", "n".repeat(201)]) {
      const problem = expectProblem(await call("/v1/api-keys", { body: { name, scopes: ["admin"] } }), 400, "validation_failed");
      expect(problem.errors?.map((e) => e.path)).toEqual(["name"]);
    }
  });

  it("an unknown field → 400 naming it (a key cannot be chosen by the caller)", async () => {
    const problem = expectProblem(await call("/v1/api-keys", { body: { name: "x", scopes: ["admin"], key: "qz_live_x" } }), 400);
    expect(problem.errors).toContainEqual({ path: "key", message: expect.any(String) });
  });

  it("needs admin", async () => {
    await expectNeedsAdmin("/v1/api-keys", { body: { name: "x", scopes: ["quizzes:read"] } });
  });
});

describe("GET /v1/api-keys", () => {
  it("lists keys without the keys themselves, paginated by cursor", async () => {
    const created = await Promise.all([createKey({ name: "page" }), createKey({ name: "page" }), createKey({ name: "page" })]);
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call(`/v1/api-keys?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.api_keys.length).toBeLessThanOrEqual(2);
      if (res.json.next_cursor) expect(res.headers.get("link")).toContain('rel="next"');
      else expect(res.headers.get("link")).toBeNull();
      seen.push(...res.json.api_keys);
      cursor = res.json.next_cursor;
      pages++;
    } while (cursor && pages < 100);
    expect(new Set(seen.map((k) => k.id)).size).toBe(seen.length);
    const ids = seen.map((k) => k.id);
    expect(ids).toEqual([...ids].sort());
    for (const k of created) expect(ids).toContain(k.id);
    for (const k of seen) {
      expect(k).not.toHaveProperty("key");
      expect(k).not.toHaveProperty("key_hash");
      expect(JSON.stringify(k)).not.toMatch(KEY);
    }
  });

  it("a bad cursor or limit → 400", async () => {
    for (const query of ["limit=0", "limit=101", "limit=x", "cursor=nope", "cursor="]) {
      expectProblem(await call(`/v1/api-keys?${query}`), 400, "validation_failed");
    }
  });

  it("needs admin", async () => {
    await expectNeedsAdmin("/v1/api-keys");
  });
});

describe("GET /v1/api-keys/{id}", () => {
  it("→ 200, the metadata without the key", async () => {
    const { key, ...metadata } = await createKey({ scopes: ["analytics:read", "users:read"] });
    const res = await call(`/v1/api-keys/${metadata.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(metadata);
    expect(res.text).not.toContain(key);
    expect(res.text).not.toContain(key.slice(API_KEY_PREFIX.length));
  });

  it("unknown or malformed id → 404", async () => {
    expectProblem(await call(MISSING), 404, "not_found");
    expectProblem(await call("/v1/api-keys/nope"), 404, "not_found");
    expectProblem(await call("/v1/api-keys/cli_01kamz3f7c9n0p8s6e5vwx2y4r"), 404, "not_found");
  });

  it("needs admin", async () => {
    await expectNeedsAdmin(`/v1/api-keys/${(await createKey()).id}`);
  });
});

describe("POST /v1/api-keys/{id}/rotate", () => {
  it("→ 201 a new key with the same name, scopes and expiry, working at once", async () => {
    const at = new Date(Date.now() + 10 * DAY_MS).toISOString();
    const old = await createKey({ name: "rotating", scopes: ["users:read", "quizzes:read"], expires_at: at });
    const res = await call(`/v1/api-keys/${old.id}/rotate`, { body: { grace_seconds: 60 } });
    expect(res.status, res.text).toBe(201);
    const successor = res.json;
    expect(res.headers.get("location")).toBe(`/v1/api-keys/${successor.id}`);
    expect(successor).toMatchObject({
      name: "rotating",
      scopes: ["users:read", "quizzes:read"],
      expires_at: at,
      rotated_to: null,
      revoked_at: null,
    });
    expect(successor.id).not.toBe(old.id);
    expect(successor.key).toMatch(KEY);
    expect(isWellFormedApiKey(successor.key)).toBe(true);
    expect(successor.key).not.toBe(old.key);
    const verified = await verify(successor.key);
    expect(verified.status).toBe(200);
    expect(verified.json.credential.id).toBe(successor.id);

    const oldNow = (await call(`/v1/api-keys/${old.id}`)).json;
    expect(oldNow.rotated_to).toBe(successor.id);
    expect(oldNow).not.toHaveProperty("key");
    const graceEnd = Date.parse(oldNow.expires_at);
    expect(graceEnd).toBeGreaterThan(Date.now() + 50_000);
    expect(graceEnd).toBeLessThanOrEqual(Date.now() + 61_000);
  });

  it("the old key keeps working during the grace period, and not after it", async () => {
    const old = await createKey();
    expect((await verify(old.key)).status).toBe(200); // cached in KV as live
    const successor = await rotate(old.id, { grace_seconds: 2 });
    expect((await verify(old.key)).status).toBe(200);
    expect((await verify(successor.key)).status).toBe(200);
    await sleep(2100);
    await expectRefused(old.key);
    expect((await verify(successor.key)).status).toBe(200);
  });

  it("grace_seconds 0 → the old key is refused at once, on this instance too", async () => {
    const old = await createKey();
    expect((await verify(old.key, "x-api-key")).status).toBe(200); // cached in KV as live
    const successor = await rotate(old.id, { grace_seconds: 0 });
    await expectRefused(old.key);
    expectProblem(await verify(old.key, "x-api-key"), 401, "invalid_token");
    expect((await verify(successor.key)).status).toBe(200);
  });

  it("without a body, the grace is a day", async () => {
    const old = await createKey();
    await rotate(old.id);
    const expiresAt = Date.parse((await call(`/v1/api-keys/${old.id}`)).json.expires_at);
    expect(Math.abs(expiresAt - (Date.now() + DAY_MS))).toBeLessThan(10_000);
    expect((await verify(old.key)).status).toBe(200);
  });

  it("a grace beyond the key's own expiry keeps the earlier expiry", async () => {
    const at = new Date(Date.now() + 60_000).toISOString();
    const old = await createKey({ expires_at: at });
    await rotate(old.id, { grace_seconds: 3600 });
    expect((await call(`/v1/api-keys/${old.id}`)).json.expires_at).toBe(at);
  });

  it("an invalid grace_seconds or an unknown field → 400", async () => {
    const old = await createKey();
    for (const body of [
      { grace_seconds: -1 },
      { grace_seconds: 1.5 },
      { grace_seconds: "60" },
      { grace_seconds: 31 * 86_400 },
      { grace: 1 },
    ]) {
      expectProblem(await call(`/v1/api-keys/${old.id}/rotate`, { body }), 400, "validation_failed");
    }
    expect((await verify(old.key)).status).toBe(200);
    expect((await call(`/v1/api-keys/${old.id}`)).json.rotated_to).toBeNull();
  });

  it("a key already rotated cannot be rotated again → 409 (a retry must not mint a successor that dies with the grace)", async () => {
    const old = await createKey();
    const successor = await rotate(old.id, { grace_seconds: 3600 });
    expectProblem(await call(`/v1/api-keys/${old.id}/rotate`, { body: { grace_seconds: 3600 } }), 409, "already_rotated");
    expect((await call(`/v1/api-keys/${old.id}`)).json.rotated_to).toBe(successor.id);
    const next = await rotate(successor.id, { grace_seconds: 0 });
    expect(next.expires_at).toBeNull();
    expect((await verify(next.key)).status).toBe(200);
  });

  it("an expired key cannot be rotated → 409 (its successor would be born expired)", async () => {
    const old = await createKey({ expires_at: new Date(Date.now() + 1000).toISOString() });
    await sleep(1100);
    expectProblem(await call(`/v1/api-keys/${old.id}/rotate`, { body: {} }), 409, "key_expired");
  });

  it("a revoked key cannot be rotated → 404", async () => {
    const old = await createKey();
    expect((await call(`/v1/api-keys/${old.id}`, { method: "DELETE" })).status).toBe(204);
    expectProblem(await call(`/v1/api-keys/${old.id}/rotate`, { body: {} }), 404, "not_found");
  });

  it("unknown or malformed id → 404", async () => {
    expectProblem(await call(`${MISSING}/rotate`, { body: {} }), 404, "not_found");
    expectProblem(await call("/v1/api-keys/nope/rotate", { body: {} }), 404, "not_found");
  });

  it("needs admin", async () => {
    const old = await createKey();
    await expectNeedsAdmin(`/v1/api-keys/${old.id}/rotate`, { body: {} });
    expect((await call(`/v1/api-keys/${old.id}`)).json.rotated_to).toBeNull();
  });
});

describe("DELETE /v1/api-keys/{id}", () => {
  it("→ 204, and the key is refused at once (also when it was cached)", async () => {
    const created = await createKey();
    expect((await verify(created.key)).status).toBe(200);
    const res = await call(`/v1/api-keys/${created.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    await expectRefused(created.key);
    expectProblem(await verify(created.key, "x-api-key"), 401, "invalid_token");
    const metadata = (await call(`/v1/api-keys/${created.id}`)).json;
    expect(metadata.revoked_at).toMatch(ISO_MS);
  });

  it("a key that was never used is refused too", async () => {
    const created = await createKey();
    expect((await call(`/v1/api-keys/${created.id}`, { method: "DELETE" })).status).toBe(204);
    await expectRefused(created.key);
  });

  it("revoking twice → 204, and the first revocation time stays", async () => {
    const created = await createKey();
    expect((await call(`/v1/api-keys/${created.id}`, { method: "DELETE" })).status).toBe(204);
    const first = (await call(`/v1/api-keys/${created.id}`)).json.revoked_at;
    expect((await call(`/v1/api-keys/${created.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(`/v1/api-keys/${created.id}`)).json.revoked_at).toBe(first);
    await expectRefused(created.key);
  });

  it("a key can revoke itself, and is refused from then on", async () => {
    const self = await seedApiKey(["admin"]);
    expect((await call(`/v1/api-keys/${self.id}`, { method: "DELETE", auth: self.key })).status).toBe(204);
    await expectRefused(self.key);
  });

  it("unknown or malformed id → 404", async () => {
    expectProblem(await call(MISSING, { method: "DELETE" }), 404, "not_found");
    expectProblem(await call("/v1/api-keys/nope", { method: "DELETE" }), 404, "not_found");
  });

  it("needs admin", async () => {
    const created = await createKey();
    await expectNeedsAdmin(`/v1/api-keys/${created.id}`, { method: "DELETE" });
    expect((await verify(created.key)).status).toBe(200);
  });
});

describe("GET /v1/api-keys/{id}/usage", () => {
  it("a new key → no requests yet", async () => {
    const created = await createKey();
    const res = await call(`/v1/api-keys/${created.id}/usage`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ key_id: created.id, total_requests: 0, last_used_at: null, daily: [] });
  });

  it("counts requests and error answers within 10 seconds", async () => {
    const created = await createKey({ scopes: ["quizzes:read"] });
    const started = new Date().toISOString();
    const answers = [
      await verify(created.key),
      await call("/v1/quizzes", { auth: created.key }),
      await verify(created.key, "x-api-key"),
      await call("/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4r", { auth: created.key }), // 404
      await call("/v1/users", { auth: created.key }), // 403: no users:read
      await call("/v1/quizzes?limit=0", { auth: created.key }), // 400
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 404, 403, 400]);
    const requests = answers.length;
    const errors = answers.filter((r) => r.status >= 400).length;

    let usage: any;
    const deadline = Date.now() + 10_000;
    do {
      await sleep(250);
      usage = (await call(`/v1/api-keys/${created.id}/usage`)).json;
    } while (usage.total_requests < requests && Date.now() < deadline);

    const today = new Date().toISOString().slice(0, 10);
    expect(usage).toEqual({
      key_id: created.id,
      total_requests: requests,
      last_used_at: expect.stringMatching(ISO_MS),
      daily: [{ date: today, requests, errors }],
    });
    expect(usage.last_used_at >= started).toBe(true);
    expect((await call(`/v1/api-keys/${created.id}`)).json.last_used_at).toBe(usage.last_used_at);
  });

  it("refused requests with a revoked key are not counted", async () => {
    const created = await createKey();
    expect((await call(`/v1/api-keys/${created.id}`, { method: "DELETE" })).status).toBe(204);
    await expectRefused(created.key);
    await sleep(1500);
    expect((await call(`/v1/api-keys/${created.id}/usage`)).json.total_requests).toBe(0);
  });

  it("unknown or malformed id → 404", async () => {
    expectProblem(await call(`${MISSING}/usage`), 404, "not_found");
    expectProblem(await call("/v1/api-keys/nope/usage"), 404, "not_found");
  });

  it("needs admin", async () => {
    await expectNeedsAdmin(`/v1/api-keys/${(await createKey()).id}/usage`);
  });
});

describe("non-admin credentials", () => {
  it("a key holding every other scope → 403 on every /v1/api-keys endpoint", async () => {
    const key = await nonAdmin();
    const { id } = await createKey();
    const attempts: [string, string, unknown?][] = [
      ["GET", "/v1/api-keys"],
      ["POST", "/v1/api-keys", { name: "x", scopes: ["admin"] }],
      ["GET", `/v1/api-keys/${id}`],
      ["POST", `/v1/api-keys/${id}/rotate`, {}],
      ["DELETE", `/v1/api-keys/${id}`],
      ["GET", `/v1/api-keys/${id}/usage`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(path, { method, body, auth: key });
      expect(res.status, `${method} ${path}`).toBe(403);
      expectProblem(res, 403, "insufficient_scope");
    }
  });
});

describe("POST /v1/api-keys/{id}/rotate, concurrently", () => {
  it("of five concurrent rotations of one key, one makes a successor; the others → 409", async () => {
    const created = await call("/v1/api-keys", { body: { name: "raced", scopes: ["quizzes:read"] } });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call(`/v1/api-keys/${created.json.id}/rotate`, { method: "POST" })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    const list = await call("/v1/api-keys?limit=100");
    const successors = list.json.api_keys.filter((k: { name: string }) => k.name === "raced");
    expect(successors).toHaveLength(2); // the old key and one successor
  });
});
