import { SignJWT } from "jose";
import type { Database } from "../env";
import type { Config } from "../lib/config";
import { sha256Hex } from "../lib/crypto";
import { kvKeys, kvTtl } from "../lib/kv-keys";
import { seal, unseal } from "../lib/sealing";
import { type Answer, outbound, verdictOf } from "../outbound/request";
import { AGS_SCORE_SCOPE } from "./claims";
import { signingKey } from "./keys";
import type { PlatformRow } from "./verify";

/**
 * The platform's access token (docs/lti.md): client_credentials with a JWT client assertion
 * (RFC 7523 §2.2; 1EdTech Security Framework §4.1) signed by the tool's current key, for the
 * AGS score scope or the NRPS membership scope. A token is reused until 60 s before it expires: kept in this isolate and,
 * sealed, in KV for the others; concurrent needs in one isolate share one request.
 */

const ASSERTION_TTL_SECONDS = 5 * 60;
/** A token is not used in its last minute: a score sent with it must still find it valid. */
const EXPIRY_MARGIN_MS = 60_000;
/** When the platform does not say how long its token lives (expires_in is RECOMMENDED only). */
const DEFAULT_TOKEN_TTL_SECONDS = 3600;

interface Token {
  accessToken: string;
  /** Usable until (ms): expiry less the margin. */
  usableUntilMs: number;
}

/** The token endpoint refused or failed: the send is not made, and the ledger says why. */
export class TokenFailure extends Error {
  constructor(readonly answer: Answer) {
    super(answer.error ?? `the token endpoint answered HTTP ${answer.status}`);
  }
}

const inMemory = new Map<string, Token>();
const requesting = new Map<string, Promise<Token>>();

/**
 * The cache key: the registration as it is now, so that a changed token URL, client or audience
 * asks afresh, and the scope (a score token is not a roster token).
 */
const cacheKey = async (platform: PlatformRow, scope: string) =>
  kvKeys.ltiToken(
    platform.id,
    (await sha256Hex(`${platform.clientId}\n${platform.authTokenUrl}\n${platform.audience ?? ""}\n${scope}`)).slice(0, 16),
  );

async function clientAssertion(env: Env, db: Database, platform: PlatformRow): Promise<string> {
  const { kid, privateKey } = await signingKey(env, db);
  return new SignJWT({})
    .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
    .setIssuer(platform.clientId)
    .setSubject(platform.clientId)
    .setAudience(platform.audience ?? platform.authTokenUrl)
    .setIssuedAt()
    .setExpirationTime(`${ASSERTION_TTL_SECONDS}s`)
    .setJti(crypto.randomUUID())
    .sign(privateKey);
}

async function requestToken(
  env: Env,
  db: Database,
  platform: PlatformRow,
  policy: Config["webhooks"]["urlPolicy"],
  scope: string,
) {
  const body = new URLSearchParams({
    grant_type: "client_credentials",
    client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
    client_assertion: await clientAssertion(env, db, platform),
    scope,
  });
  const answer = await outbound(
    platform.authTokenUrl,
    { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body },
    policy,
  );
  if (verdictOf(answer) !== "ok") throw new TokenFailure(answer);
  let parsed: { access_token?: unknown; expires_in?: unknown };
  try {
    parsed = JSON.parse(answer.body) as typeof parsed;
  } catch {
    parsed = {};
  }
  if (typeof parsed.access_token !== "string" || parsed.access_token === "")
    throw new TokenFailure({ ...answer, status: null, error: "The token endpoint answered no access_token." });
  const ttl = typeof parsed.expires_in === "number" && parsed.expires_in > 0 ? parsed.expires_in : DEFAULT_TOKEN_TTL_SECONDS;
  return { accessToken: parsed.access_token, usableUntilMs: Date.now() + ttl * 1000 - EXPIRY_MARGIN_MS, ttl };
}

/** A token for `scope` (by default AGS scores) good for at least another minute, asked for only when none is kept. */
export async function platformToken(
  env: Env,
  db: Database,
  platform: PlatformRow,
  policy: Config["webhooks"]["urlPolicy"],
  scope = AGS_SCORE_SCOPE,
) {
  const key = await cacheKey(platform, scope);
  const known = inMemory.get(key);
  if (known && known.usableUntilMs > Date.now()) return known.accessToken;
  let pending = requesting.get(key);
  if (!pending) {
    pending = (async () => {
      const shared = await env.KV.get(key);
      if (shared) {
        const token = JSON.parse(await unseal(env, "ltiKeys", platform.id, shared)) as Token;
        if (token.usableUntilMs > Date.now()) return token;
      }
      const { ttl, ...token } = await requestToken(env, db, platform, policy, scope);
      if (token.usableUntilMs > Date.now())
        await env.KV.put(key, await seal(env, "ltiKeys", platform.id, JSON.stringify(token)), { expirationTtl: kvTtl(ttl) });
      return token;
    })().finally(() => requesting.delete(key));
    requesting.set(key, pending);
  }
  const token = await pending;
  inMemory.set(key, token);
  return token.accessToken;
}

/** The platform refused the token (401 on a score or a roster page): forget it, so that the next need asks for a new one. */
export async function forgetToken(env: Env, platform: PlatformRow, scope = AGS_SCORE_SCOPE): Promise<void> {
  const key = await cacheKey(platform, scope);
  inMemory.delete(key);
  await env.KV.delete(key);
}
