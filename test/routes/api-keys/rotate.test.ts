import { describe, expect, it } from "vitest";
import { isWellFormedApiKey } from "../../../src/domain/credential-format";
import { call, expectProblem } from "../../support/call";
import { createKey, DAY_MS, expectNeedsAdmin, expectRefused, KEY, MISSING, rotate, sleep, verify } from "./fixtures";

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
    const graceEnd = Date.parse(oldNow.expires_at!);
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
    const expiresAt = Date.parse((await call(`/v1/api-keys/${old.id}`)).json.expires_at!);
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
