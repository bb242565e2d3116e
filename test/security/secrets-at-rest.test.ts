import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { API_KEY_PREFIX } from "../../src/domain/credential-format";
import { sha256Hex } from "../../src/lib/crypto";
import { type AnswerOf, type CallOptions, call, defaultKey, type KnownPath, type Schema } from "../support/call";

/**
 * §3: secrets are stored only as SHA-256 hashes. Every flow that creates or hands out a secret
 * runs here; then every D1 row and every KV key, value and metadata of this test file's storage
 * is searched for each plaintext the test saw, and for its random part without the prefix.
 */

const seen = new Set<string>();
const remember = (...secrets: (string | undefined)[]) => {
  for (const s of secrets) if (s) seen.add(s);
};

const randomIp = () => `10.${[...crypto.getRandomValues(new Uint8Array(3))].join(".")}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ok<P extends KnownPath, const O extends CallOptions = object>(
  path: P,
  options?: O,
): Promise<AnswerOf<P, O>["json"]> {
  const res = await call(path, options);
  expect(res.status, `${path}: ${res.text}`).toBeLessThan(300);
  return res.json;
}

async function oauth<P extends "/oauth/token" | "/oauth/introspect" | "/oauth/revoke">(
  path: P,
  params: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const res = await call(path, {
    auth: false,
    raw: new URLSearchParams(params),
    headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": randomIp(), ...headers },
  });
  // Only the token endpoint's answer holds tokens.
  const tokens: Partial<Schema<"TokenResponse">> | undefined = res.json;
  if (tokens?.access_token) remember(tokens.access_token, tokens.refresh_token);
  return res;
}

/** Runs every flow that makes a secret, remembering each plaintext. */
async function runFlows() {
  remember(await defaultKey());

  // API keys: created, used (KV cache, usage rows), rotated (both keys used), revoked.
  const keys = await Promise.all(
    [["quizzes:read"], ["users:read", "users:write"], ["admin"]].map((scopes, i) =>
      ok("/v1/api-keys", {
        body: { name: `at rest ${i}`, scopes, expires_at: i === 0 ? new Date(Date.now() + 86_400_000).toISOString() : null },
      }),
    ),
  );
  for (const k of keys) remember(k.key);
  for (const k of keys) {
    await ok("/v1/auth/verify", { auth: k.key });
    await call("/v1/auth/verify", { auth: false, headers: { "x-api-key": k.key } });
  }
  const rotated = await ok(`/v1/api-keys/${keys[0]!.id}/rotate`, { body: { grace_seconds: 60 } });
  const rotatedNow = await ok(`/v1/api-keys/${keys[1]!.id}/rotate`, { body: { grace_seconds: 0 } });
  remember(rotated.key, rotatedNow.key);
  await ok("/v1/auth/verify", { auth: rotated.key });
  await call("/v1/auth/verify", { auth: keys[1]!.key }); // refused: rotated out
  await ok(`/v1/api-keys/${keys[2]!.id}`, { method: "DELETE" });
  await call("/v1/auth/verify", { auth: keys[2]!.key }); // refused: revoked

  // OAuth clients: created, secret rotated, tokens by both client authentication methods,
  // refreshed, introspected, revoked; one client deleted with its tokens.
  const client = await ok("/v1/oauth-clients", { body: { name: "at rest", scopes: ["quizzes:read", "analytics:read"] } });
  const doomed = await ok("/v1/oauth-clients", { body: { name: "doomed", scopes: ["users:read"] } });
  remember(client.client_secret, doomed.client_secret);
  const rotatedSecret = await ok(`/v1/oauth-clients/${client.id}/rotate-secret`, { method: "POST" });
  remember(rotatedSecret.client_secret);
  const secret = rotatedSecret.client_secret;

  const post = { client_id: client.id, client_secret: secret };
  const basic = { authorization: `Basic ${btoa(`${client.id}:${secret}`)}` };
  const first = await oauth("/oauth/token", { grant_type: "client_credentials", ...post });
  expect(first.status, first.text).toBe(200);
  const second = await oauth("/oauth/token", { grant_type: "client_credentials", scope: "quizzes:read" }, basic);
  expect(second.status, second.text).toBe(200);
  const refreshed = await oauth("/oauth/token", {
    grant_type: "refresh_token",
    refresh_token: first.json.refresh_token,
    ...post,
  });
  expect(refreshed.status, refreshed.text).toBe(200);
  const again = await oauth("/oauth/token", { grant_type: "refresh_token", refresh_token: refreshed.json.refresh_token }, basic);
  expect(again.status, again.text).toBe(200);
  await oauth("/oauth/introspect", { token: again.json.access_token, ...post });
  await oauth("/oauth/introspect", { token: again.json.refresh_token, ...post });
  await oauth("/oauth/revoke", { token: second.json.refresh_token, ...post });
  const doomedTokens = await oauth("/oauth/token", {
    grant_type: "client_credentials",
    client_id: doomed.id,
    client_secret: doomed.client_secret,
  });
  expect(doomedTokens.status, doomedTokens.text).toBe(200);
  // A failed attempt with a wrong secret must not store what it was sent either.
  const wrong = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
  remember(wrong);
  expect(
    (await oauth("/oauth/token", { grant_type: "client_credentials", client_id: client.id, client_secret: wrong })).status,
  ).toBe(401);
  const access: string = again.json.access_token;
  const refresh: string = again.json.refresh_token;
  await ok("/v1/auth/verify", { auth: access });
  await ok(`/v1/oauth-clients/${doomed.id}`, { method: "DELETE" });

  // Learner and report sessions (§17): minted, used (a submission, idempotently), revoked.
  const quiz = await ok("/v1/quizzes", {
    body: { title: "at rest", questions: [{ type: "true_false", prompt: "?", correct: true }] },
  });
  const user = await ok("/v1/users", { body: { name: "At rest", email: `${crypto.randomUUID()}@example.com` } });
  const learner = await ok("/v1/learner-sessions", { body: { user_id: user.id, quiz_id: quiz.id } });
  const report = await ok("/v1/report-sessions", { body: { quiz_ids: [quiz.id] } });
  remember(learner.token, report.token);
  await ok(`/v1/quizzes/${quiz.id}/submissions`, {
    body: {},
    auth: learner.token,
    headers: { "idempotency-key": crypto.randomUUID() },
  });
  await ok(`/v1/quizzes/${quiz.id}`, { auth: report.token });
  await ok(`/v1/learner-sessions/${learner.id}`, { method: "DELETE" });
  await ok(`/v1/report-sessions/${report.id}`, { method: "DELETE" });
  // Let the delayed usage flush (src/auth/usage.ts, about a second) reach D1.
  await sleep(1500);
  return { apiKey: keys[0]!.key as string, accessToken: access, refreshToken: refresh };
}

/** Every text D1 holds in this file's database: one string per row, all columns joined. */
async function d1Texts(): Promise<{ where: string; text: string }[]> {
  // D1's own tables (_cf_…) are left out before any query names them: reading one is refused, and
  // workerd logs the attempt ("SQL identifier matches reserved _cf_ prefix") into the test run.
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
  ).all<{ name: string }>();
  const out: { where: string; text: string }[] = [];
  for (const { name } of tables.results) {
    let rows: Record<string, unknown>[];
    try {
      rows = (await env.DB.prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`).all()).results;
    } catch (error) {
      // D1's own bookkeeping tables may refuse to be read; nothing of ours is in them.
      if (name.startsWith("d1_")) continue;
      throw error;
    }
    rows.forEach((row, i) => out.push({ where: `D1 ${name} row ${i}`, text: Object.values(row).map(String).join("\u0000") }));
  }
  return out;
}

/** Every KV key, its value and its metadata. */
async function kvTexts(): Promise<{ where: string; text: string }[]> {
  const out: { where: string; text: string }[] = [];
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<unknown> = await env.KV.list({ cursor });
    for (const { name, metadata } of page.keys) {
      out.push({ where: `KV key name`, text: name });
      out.push({ where: `KV value of ${name}`, text: (await env.KV.get(name, "text")) ?? "" });
      if (metadata !== undefined) out.push({ where: `KV metadata of ${name}`, text: JSON.stringify(metadata) });
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return out;
}

/** The forms of a secret that must not be stored: whole, and its random part without the prefix. */
function forms(secret: string): string[] {
  const underscore = secret.lastIndexOf("_");
  const random = secret.slice(underscore + 1);
  const out = [secret, random];
  // An API key's random part also without its checksum.
  if (secret.startsWith(API_KEY_PREFIX)) out.push(secret.slice(API_KEY_PREFIX.length, -6));
  return out;
}

describe("secrets at rest", () => {
  it("no plaintext API key, client secret, access or refresh token is stored in D1 or KV", async () => {
    const { apiKey, accessToken, refreshToken } = await runFlows();
    expect(seen.size).toBeGreaterThanOrEqual(12);
    for (const s of seen) expect(s.slice(s.lastIndexOf("_") + 1).length, s).toBeGreaterThanOrEqual(32);

    const stored = [...(await d1Texts()), ...(await kvTexts())];
    // The scan sees what is there: the hashes the service keeps instead.
    const all = stored.map((s) => s.text).join("\n");
    expect(all).toContain(await sha256Hex(apiKey));
    expect(all).toContain(await sha256Hex(accessToken));
    expect(all).toContain(await sha256Hex(refreshToken));
    expect(stored.some((s) => s.where.startsWith("D1 api_key_usage"))).toBe(true);

    const leaks: string[] = [];
    for (const secret of seen) {
      for (const form of forms(secret)) {
        for (const { where, text } of stored)
          if (text.includes(form)) leaks.push(`${where} holds ${form === secret ? "" : "part of "}${secret.slice(0, 10)}…`);
      }
    }
    expect(leaks).toEqual([]);
  });
});
