import { describe, expect, it } from "vitest";
import { API_KEY_PREFIX, isWellFormedApiKey } from "../../../src/domain/credential-format";
import { call, expectProblem } from "../../support/call";
import { createKey, DAY_MS, expectNeedsAdmin, ISO_MS, KEY, KEY_ID, verify } from "./fixtures";

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
