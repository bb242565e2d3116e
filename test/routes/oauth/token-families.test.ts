import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../../src/app";
import { REFRESH_GRACE_SECONDS } from "../../../src/auth/oauth-refresh";
import { sha256Hex } from "../../../src/lib/crypto";
import { kvKeys } from "../../../src/lib/kv-keys";
import { type CountedCall, countingEnv } from "../../support/binding-counter";
import { BASE, call } from "../../support/call";
import { post } from "../../support/oauth-helpers";

/**
 * docs/security.md, "Token families are exact under concurrency": the grant's state lives in D1 and
 * changes only by conditional updates, so concurrent refreshes and revocations cannot lose a
 * token or undo a revocation (src/auth/oauth-tokens.ts argues why).
 */

interface Client {
  id: string;
  client_id: string;
  client_secret: string;
}

interface TokenAnswer {
  status: number;
  json: any;
  text: string;
}

async function newClient(): Promise<Client> {
  const res = await call("/v1/oauth-clients", { body: { name: "families", scopes: ["quizzes:read", "users:read"] } });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

const credentials = (client: Client) => ({ client_id: client.client_id, client_secret: client.client_secret });

async function grant(client: Client): Promise<{ access_token: string; refresh_token: string }> {
  const res = await post("/oauth/token", { grant_type: "client_credentials", ...credentials(client) });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

const refresh = (client: Client, refreshToken: string): Promise<TokenAnswer> =>
  post("/oauth/token", { grant_type: "refresh_token", refresh_token: refreshToken, ...credentials(client) });

const revoke = (client: Client, token: string) => post("/oauth/revoke", { token, ...credentials(client) });

const isLive = async (accessToken: string) => {
  const res = await call("/v1/auth/verify", { auth: accessToken });
  expect([200, 401], res.text).toContain(res.status);
  return res.status === 200;
};

function expectInvalidGrant(res: TokenAnswer) {
  expect(res.status, res.text).toBe(400);
  expect(res.json.error).toBe("invalid_grant");
}

/** The answers of `n` refreshes of one token sent at once: the successes, and every failure checked to be invalid_grant. */
async function refreshAtOnce(client: Client, refreshToken: string, n: number) {
  const answers = await Promise.all(Array.from({ length: n }, () => refresh(client, refreshToken)));
  const ok = answers.filter((a) => a.status === 200).map((a) => a.json as { access_token: string; refresh_token: string });
  for (const failed of answers.filter((a) => a.status !== 200)) expectInvalidGrant(failed);
  return ok;
}

interface FamilyRow {
  id: string;
  generation: number;
  current_hash: string;
  previous_hash: string | null;
  revoked_at: string | null;
}

async function familyOf(refreshToken: string): Promise<FamilyRow> {
  const row = await env.DB.prepare(
    "SELECT f.* FROM oauth_token_families f JOIN oauth_refresh_tokens r ON r.family_id = f.id WHERE r.hash = ?",
  )
    .bind(await sha256Hex(refreshToken))
    .first<FamilyRow>();
  expect(row).not.toBeNull();
  return row!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  vi.useRealTimers();
});

describe("concurrent refreshes of one refresh token", () => {
  it("20 at once, then the client is deleted: every access token any of them answered is dead (10 trials)", {
    timeout: 60_000,
  }, async () => {
    const wins: number[] = [];
    for (let trial = 0; trial < 10; trial++) {
      const client = await newClient();
      const first = await grant(client);
      const ok = await refreshAtOnce(client, first.refresh_token, 20);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      wins.push(ok.length);
      const answered = [first.access_token, ...ok.map((t) => t.access_token)];
      for (const token of answered) expect(await isLive(token)).toBe(true);

      const deleted = await call(`/v1/oauth-clients/${client.id}`, { method: "DELETE" });
      expect(deleted.status, deleted.text).toBe(204);
      for (const token of answered) expect(await isLive(token), `trial ${trial}`).toBe(false);
    }
    console.log(`20 concurrent refreshes, successes per trial: ${wins.join(", ")}`);
  });

  it("the family ends with one current refresh token, and every answered access token is recorded in it (5 trials of 12)", {
    timeout: 60_000,
  }, async () => {
    for (let trial = 0; trial < 5; trial++) {
      const client = await newClient();
      const first = await grant(client);
      const ok = await refreshAtOnce(client, first.refresh_token, 12);
      expect(ok.length).toBeGreaterThanOrEqual(1);

      const family = await familyOf(first.refresh_token);
      expect(family.revoked_at).toBeNull();
      // One rotation per success, no more: the losers changed nothing.
      expect(family.generation).toBe(ok.length);
      const returnedRefresh = await Promise.all(ok.map((t) => sha256Hex(t.refresh_token)));
      expect(returnedRefresh.filter((h) => h === family.current_hash)).toHaveLength(1);

      const rows = await env.DB.prepare("SELECT hash FROM oauth_access_tokens WHERE family_id = ?")
        .bind(family.id)
        .all<{ hash: string }>();
      const recorded = new Set(rows.results.map((r) => r.hash));
      const answered = await Promise.all([first, ...ok].map((t) => sha256Hex(t.access_token)));
      for (const hash of answered) expect(recorded.has(hash)).toBe(true);
      // Nothing but what was answered: a loser's access token has no row (and was deleted from KV).
      expect(recorded.size).toBe(answered.length);
      const rts = await env.DB.prepare("SELECT hash FROM oauth_refresh_tokens WHERE family_id = ?")
        .bind(family.id)
        .all<{ hash: string }>();
      expect(rts.results.map((r) => r.hash).sort()).toEqual([await sha256Hex(first.refresh_token), ...returnedRefresh].sort());
    }
  });
});

describe("a revocation with more access tokens than one invocation may delete from KV", () => {
  it("answers 204 at once; the first 900 are dead at once and the queue deletes every other one", {
    timeout: 60_000,
  }, async () => {
    const client = await newClient();
    const first = await grant(client);
    const family = await familyOf(first.refresh_token);
    // 2 000 more live access tokens of the family, recorded in D1 and in KV as an issue writes them:
    // more than twice what one invocation may delete.
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const hashes = Array.from({ length: 2000 }, () =>
      [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join(""),
    );
    await env.DB.prepare(
      "INSERT INTO oauth_access_tokens (hash, family_id, client_id, expires_at) SELECT value, ?, ?, ? FROM json_each(?)",
    )
      .bind(family.id, client.client_id, expires, JSON.stringify(hashes))
      .run();
    const record = JSON.stringify({
      client_id: client.client_id,
      scopes: [],
      family_id: family.id,
      iat: expires - 3600,
      exp: expires,
    });
    for (let i = 0; i < hashes.length; i += 100)
      await Promise.all(
        hashes.slice(i, i + 100).map((hash) => env.KV.put(kvKeys.accessToken(hash), record, { expirationTtl: 3600 })),
      );

    const deleted = await call(`/v1/oauth-clients/${client.id}`, { method: "DELETE" });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await isLive(first.access_token)).toBe(false);
    expect((await familyOf(first.refresh_token)).revoked_at).not.toBeNull();
    const stillInKv = async () => {
      let left = 0;
      for (let i = 0; i < hashes.length; i += 100)
        left += (await Promise.all(hashes.slice(i, i + 100).map((hash) => env.KV.get(kvKeys.accessToken(hash))))).filter(
          (v) => v !== null,
        ).length;
      return left;
    };
    expect(await stillInKv()).toBeLessThanOrEqual(2001 - 900);
    await vi.waitFor(async () => expect(await stillInKv()).toBe(0), { timeout: 30_000, interval: 250 });
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM oauth_access_tokens WHERE family_id = ?")
      .bind(family.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});

describe("a revocation racing a refresh", () => {
  it("leaves no access token the refresh answered alive, and the refresh token dead (20 trials)", {
    timeout: 60_000,
  }, async () => {
    const client = await newClient();
    let refreshWon = 0;
    for (let trial = 0; trial < 20; trial++) {
      const first = await grant(client);
      // Vary who starts first and by how much, to meet more interleavings.
      const stagger = trial % 4;
      const [refreshed, revoked] = await Promise.all([
        (async () => {
          if (trial % 2 === 0) await sleep(stagger);
          return refresh(client, first.refresh_token);
        })(),
        (async () => {
          if (trial % 2 === 1) await sleep(stagger);
          return revoke(client, first.refresh_token);
        })(),
      ]);
      expect(revoked.status, revoked.text).toBe(200);
      expect(await isLive(first.access_token), `trial ${trial}`).toBe(false);
      if (refreshed.status === 200) {
        refreshWon++;
        expect(await isLive(refreshed.json.access_token), `trial ${trial}`).toBe(false);
        expectInvalidGrant(await refresh(client, refreshed.json.refresh_token));
      } else {
        expectInvalidGrant(refreshed);
      }
      expectInvalidGrant(await refresh(client, first.refresh_token));
      expect((await familyOf(first.refresh_token)).revoked_at).not.toBeNull();
    }
    console.log(`revoke racing refresh: the refresh answered 200 in ${refreshWon} of 20 trials`);
  });
});

describe("grants issued while the client's secret is rotated", () => {
  it("every token answered for the old secret is dead once the rotation answered (10 trials)", { timeout: 60_000 }, async () => {
    let issuedDuring = 0;
    for (let trial = 0; trial < 10; trial++) {
      const client = await newClient();
      const [rotated, ...answers] = await Promise.all([
        call(`/v1/oauth-clients/${client.id}/rotate-secret`, { method: "POST" }),
        ...Array.from({ length: 5 }, () => post("/oauth/token", { grant_type: "client_credentials", ...credentials(client) })),
      ]);
      expect(rotated.status, rotated.text).toBe(200);
      for (const a of answers) {
        if (a.status !== 200) expect(a.status, a.text).toBe(401);
        else {
          issuedDuring++;
          expect(await isLive(a.json.access_token), `trial ${trial}`).toBe(false);
        }
      }
    }
    console.log(`client_credentials racing a secret rotation: ${issuedDuring} of 50 answered 200 (all of them dead after)`);
  });
});

describe("the lost-response grace", () => {
  it(`the previous refresh token is accepted within ${REFRESH_GRACE_SECONDS} s of its successor's issue; after that it is reuse and revokes the family`, {
    timeout: 30_000,
  }, async () => {
    const client = await newClient();
    const [kept, reused] = [await grant(client), await grant(client)];
    const [keptNext, reusedNext] = [
      (await refresh(client, kept.refresh_token)).json,
      (await refresh(client, reused.refresh_token)).json,
    ];
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });

    vi.setSystemTime(start + (REFRESH_GRACE_SECONDS - 1) * 1000);
    expect((await post("/oauth/introspect", { token: kept.refresh_token, ...credentials(client) })).json.active).toBe(true);
    const retried = await refresh(client, kept.refresh_token);
    expect(retried.status, retried.text).toBe(200);
    for (const token of [kept.access_token, keptNext.access_token, retried.json.access_token])
      expect(await isLive(token)).toBe(true);
    expect((await familyOf(kept.refresh_token)).revoked_at).toBeNull();

    vi.setSystemTime(start + (REFRESH_GRACE_SECONDS + 1) * 1000);
    expect((await post("/oauth/introspect", { token: reused.refresh_token, ...credentials(client) })).json).toEqual({
      active: false,
    });
    expectInvalidGrant(await refresh(client, reused.refresh_token));
    expectInvalidGrant(await refresh(client, reusedNext.refresh_token));
    for (const token of [reused.access_token, reusedNext.access_token]) expect(await isLive(token)).toBe(false);
    expect((await familyOf(reused.refresh_token)).revoked_at).not.toBeNull();
  });
});

describe("what issuing and refreshing cost", () => {
  const RATE_LIMIT_KEYS = `${kvKeys.rateLimit("", 0).split(":").slice(0, 2).join(":")}:`;
  const kvWritesOf = (log: CountedCall[]) => log.filter((c) => c.kind === "kvWrites" && !c.detail.startsWith(RATE_LIMIT_KEYS));

  async function send(counted: ReturnType<typeof countingEnv>, params: Record<string, string>) {
    counted.reset();
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`${BASE}/oauth/token`, {
        method: "POST",
        body: new URLSearchParams(params),
        headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": "10.9.9.9" },
      }),
      counted.env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    return { json: await res.json<{ access_token: string; refresh_token: string }>(), log: [...counted.log] };
  }

  it("client_credentials: exactly one KV write (the access token) and one D1 batch after the client lookup", {
    timeout: 30_000,
  }, async () => {
    const client = await newClient();
    const counted = countingEnv(env);
    const issued = await send(counted, { grant_type: "client_credentials", ...credentials(client) });
    const writes = kvWritesOf(issued.log);
    expect(writes, JSON.stringify(issued.log)).toEqual([
      { kind: "kvWrites", detail: kvKeys.accessToken(await sha256Hex(issued.json.access_token)) },
    ]);
    const d1 = issued.log.filter((c) => c.kind === "d1");
    expect(d1, JSON.stringify(d1)).toHaveLength(2);
    expect(d1[1]?.detail).toMatch(/^batch: INSERT INTO oauth_token_families/);
    expect(issued.log.filter((c) => c.kind === "kvDeletes" || c.kind === "kvLists")).toEqual([]);

    const refreshed = await send(counted, {
      grant_type: "refresh_token",
      refresh_token: issued.json.refresh_token,
      ...credentials(client),
    });
    expect(kvWritesOf(refreshed.log), JSON.stringify(refreshed.log)).toHaveLength(1);
    const refreshD1 = refreshed.log.filter((c) => c.kind === "d1");
    // The client lookup, the refresh token's read, the rotation batch.
    expect(refreshD1, JSON.stringify(refreshD1)).toHaveLength(3);
    expect(refreshD1[2]?.detail).toMatch(/^batch: UPDATE oauth_token_families/);
    expect(refreshed.log.filter((c) => c.kind === "kvDeletes" || c.kind === "kvLists")).toEqual([]);
  });
});
