import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { BASE, call, defaultKey, expectProblem } from "../support/call";
import { keptGrade, learner, ledger, newQuiz } from "./learners";
import { eventually, newPlatform, toolJwks, unique } from "./platform";

// The tool's keys (docs/lti.md): made on first need, one current key whatever races, private
// key sealed at rest, GET /.well-known/jwks.json public, rotation keeping the previous key listed.

const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi"];

describe("GET /.well-known/jwks.json", { timeout: 60_000 }, () => {
  // First in the file: the storage has no key yet.
  it("concurrent first needs make one key", async () => {
    const sets = await Promise.all([1, 2, 3, 4, 5].map(() => toolJwks()));
    const kids = new Set(sets.flatMap((set) => set.keys.map((k) => k.kid)));
    expect(kids.size).toBe(1);
    const rows = await env.DB.prepare("SELECT kid, status FROM lti_keys").all();
    expect(rows.results).toEqual([{ kid: [...kids][0], status: "current" }]);
  });

  it("is public and cacheable, and lists RS256 2048-bit public keys with kids, no private member", async () => {
    const res = await call("/.well-known/jwks.json", { auth: false });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const [key] = res.json.keys;
    expect(key).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig", e: "AQAB", kid: expect.stringMatching(/^ltk_/) });
    // 2048 bits: 256 bytes of modulus, 342 base64url characters.
    expect(key!.n).toHaveLength(342);
    for (const member of PRIVATE_MEMBERS) expect(key).not.toHaveProperty(member);
  });

  it("keeps the private key sealed at rest: no JWK in D1", async () => {
    const { results } = await env.DB.prepare("SELECT private_sealed FROM lti_keys").all<{ private_sealed: string }>();
    for (const { private_sealed } of results) {
      expect(private_sealed).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
      expect(private_sealed).not.toContain('"d"');
    }
  });
});

describe("POST /v1/lti/keys/rotate", { timeout: 60_000 }, () => {
  it("a new key signs; the previous one stays listed for 24 h; rotating again keeps two keys", async () => {
    const before = (await toolJwks()).keys.map((k) => k.kid);
    const rotated = await call("/v1/lti/keys/rotate", { method: "POST" });
    expect(rotated.status, rotated.text).toBe(200);
    const [current, previous] = rotated.json.keys;
    expect(current).toMatchObject({ status: "current", listed_until: null });
    expect(previous).toMatchObject({ status: "previous", kid: before[0] });
    const listedFor = Date.parse(previous!.listed_until!) - Date.now();
    expect(listedFor).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(listedFor).toBeLessThanOrEqual(24 * 3600_000);
    expect((await toolJwks()).keys.map((k) => k.kid)).toEqual([current!.kid, previous!.kid]);

    // The platform knows only the new key: the token request's assertion must be signed with it.
    const platform = await newPlatform();
    const onlyCurrent = { keys: (await toolJwks()).keys.filter((k) => k.kid === current!.kid) };
    await fetch(`${env.LTI_PLATFORM_URL}/p/${platform.name}/tool-jwks`, { method: "POST", body: JSON.stringify(onlyCurrent) });
    const quizId = await newQuiz();
    const who = await learner(platform, quizId, platform.lineitem(unique("item")));
    await keptGrade(quizId, who, { earned: 1, possible: 1 });
    await eventually(async () => expect((await ledger(`&user_id=${who.userId}`))[0]?.status).toBe("succeeded"));

    const again = (await call("/v1/lti/keys/rotate", { method: "POST" })).json.keys;
    expect(again.map((k: { kid: string }) => k.kid)).toEqual([expect.any(String), current!.kid]);
    expect((await toolJwks()).keys.map((k) => k.kid)).not.toContain(before[0]);
  });

  it("without WEBHOOK_SECRET_KEY → 503 lti_not_configured", async () => {
    const ctx = createExecutionContext();
    const request = new Request(`${BASE}/v1/lti/keys/rotate`, {
      method: "POST",
      headers: { authorization: `Bearer ${await defaultKey()}` },
    });
    const res = await app.fetch(request, { ...env, WEBHOOK_SECRET_KEY: "" }, ctx);
    await waitOnExecutionContext(ctx);
    const body = { status: res.status, headers: res.headers, json: await res.json(), text: "" };
    expectProblem(body, 503, "lti_not_configured");
  });
});
