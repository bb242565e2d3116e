import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectProblem, type KnownPath, seedApiKey } from "../support/call";

let n = 0;
const uniqueEmail = () => `idem-${Date.now()}-${n++}@example.com`;
const post = <P extends KnownPath>(path: P, body: unknown, key: string, auth?: string) =>
  call(path, { body, headers: { "Idempotency-Key": key }, ...(auth ? { auth } : {}) });

async function usersWithEmail(email: string) {
  const res = await call(`/v1/users?email=${encodeURIComponent(email)}`);
  return res.json.users as { id: string }[];
}

describe("Idempotency-Key on POST /v1/*", () => {
  it("the same key and body within 24 h replays the first answer and creates nothing more", async () => {
    const email = uniqueEmail();
    const first = await post("/v1/users", { name: "Once", email }, "key-replay-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await post("/v1/users", { name: "Once", email }, "key-replay-1");
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("x-request-id")).toBeTruthy();
    expect(again.headers.get("ratelimit")).toMatch(/^"default";r=\d+;t=\d+$/);
    expect(await usersWithEmail(email)).toHaveLength(1);
  });

  it("the same key with a different body → 409 idempotency_key_reused", async () => {
    await post("/v1/users", { name: "A", email: uniqueEmail() }, "key-reused-1");
    expectProblem(await post("/v1/users", { name: "B", email: uniqueEmail() }, "key-reused-1"), 409, "idempotency_key_reused");
  });

  it("the same key on another path → 409 idempotency_key_reused", async () => {
    await post("/v1/quizzes", { title: "Q" }, "key-path-1");
    expectProblem(await post("/v1/users", { title: "Q" }, "key-path-1"), 409, "idempotency_key_reused");
  });

  it("two concurrent identical POSTs execute once; both get the same answer", async () => {
    const email = uniqueEmail();
    const [a, b] = await Promise.all([
      post("/v1/users", { name: "Twin", email }, "key-concurrent-1"),
      post("/v1/users", { name: "Twin", email }, "key-concurrent-1"),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json.id).toBe(b.json.id);
    expect([a.headers.get("idempotent-replayed"), b.headers.get("idempotent-replayed")]).toContain("true");
    expect(await usersWithEmail(email)).toHaveLength(1);
  });

  it("ten concurrent identical submissions create one", async () => {
    const quiz = await call("/v1/quizzes", { body: { title: "Idem quiz" } });
    const user = await call("/v1/users", { body: { name: "Taker", email: uniqueEmail() } });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(`/v1/quizzes/${quiz.json.id}/submissions`, { user_id: user.json.id }, "key-submission-1"),
      ),
    );
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(answers.map((r) => r.json.id)).size).toBe(1);
    const list = await call(`/v1/users/${user.json.id}/submissions`);
    expect(list.json.submissions).toHaveLength(1);
  });

  it("an error answer is kept and replayed too (Stripe's semantics)", async () => {
    const first = await post("/v1/users", { name: "Bad e-mail", email: "not-an-email" }, "key-error-1");
    expectProblem(first, 400, "validation_failed");
    const again = await post("/v1/users", { name: "Bad e-mail", email: "not-an-email" }, "key-error-1");
    expectProblem(again, 400, "validation_failed");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  it("keys belong to their credential: another credential may use the same key", async () => {
    const other = await seedApiKey(["users:write", "users:read"]);
    const a = await post("/v1/users", { name: "Mine", email: uniqueEmail() }, "key-shared-1");
    const b = await post("/v1/users", { name: "Theirs", email: uniqueEmail() }, "key-shared-1", other.key);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json.id).not.toBe(b.json.id);
  });

  it("a malformed key → 400 invalid_idempotency_key", async () => {
    expectProblem(await post("/v1/quizzes", { title: "Q" }, "x".repeat(256)), 400, "invalid_idempotency_key");
    expectProblem(await post("/v1/quizzes", { title: "Q" }, "with space"), 400, "invalid_idempotency_key");
  });

  it("without a key, every POST executes", async () => {
    const a = await call("/v1/quizzes", { body: { title: "Twice" } });
    const b = await call("/v1/quizzes", { body: { title: "Twice" } });
    expect(a.json.id).not.toBe(b.json.id);
  });

  it("keeps the answer in KV for 24 hours, under a hash of the key", async () => {
    await post("/v1/quizzes", { title: "Stored" }, "key-ttl-1");
    const { keys } = await env.KV.list({ prefix: "v1:idem:" });
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.some((k) => k.name.includes("key-ttl-1"))).toBe(false);
    const now = Date.now() / 1000;
    for (const k of keys) expect(k.expiration).toBeGreaterThan(now + 24 * 3600 - 120);
  });
});

describe("Idempotency-Key and secrets", () => {
  it("an answer that shows a key once is replayable, yet no KV entry holds the key in the clear", async () => {
    const first = await post("/v1/api-keys", { name: "replayed", scopes: ["quizzes:read"] }, "key-secret-1");
    expect(first.status).toBe(201);
    const again = await post("/v1/api-keys", { name: "replayed", scopes: ["quizzes:read"] }, "key-secret-1");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.key).toBe(first.json.key);
    const secret: string = first.json.key;
    const { keys } = await env.KV.list();
    for (const { name } of keys) {
      expect(name).not.toContain("key-secret-1");
      const value = (await env.KV.get(name)) ?? "";
      expect(value).not.toContain(secret);
      expect(value).not.toContain(secret.slice("qz_live_".length, -6));
    }
  });
});
