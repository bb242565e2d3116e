import {
  ACCESS_TOKEN_PREFIX,
  REFRESH_TOKEN_PREFIX,
  generateAccessToken,
  generateRefreshToken,
} from "../domain/credential-format";
import { sha256Hex } from "../lib/crypto";
import { kvKeys, kvTtl } from "../lib/kv-keys";

/**
 * OAuth tokens live only in KV, under the SHA-256 of the token, with a KV expiration and an
 * `exp` that is checked on every read (KV may serve an entry for a while after it expires).
 *
 * Refresh tokens rotate: each use issues a new one. They belong to a family (one per grant)
 * that remembers the newest token (`current`) and the one before it (`previous`). The previous
 * token stays valid until the current one is first used, so a client that lost a response can
 * retry; any other older token coming back means it leaked, and the whole family is revoked.
 */

export interface AccessTokenRecord {
  client_id: string;
  scopes: string[];
  family_id: string;
  iat: number;
  exp: number;
}

interface RefreshTokenRecord {
  client_id: string;
  family_id: string;
  iat: number;
  exp: number;
}

interface FamilyRecord {
  client_id: string;
  /** The scopes of the original grant: the most a refresh may ask for. */
  scopes: string[];
  current: string;
  previous: string | null;
  revoked: boolean;
  /** Live access tokens issued from the family, revoked with it. */
  access_tokens: { hash: string; exp: number }[];
  exp: number;
}

export interface TokenSettings {
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scopes: string[];
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

async function getJson<T>(kv: KVNamespace, key: string): Promise<T | null> {
  return kv.get<T>(key, "json");
}

function putJson(kv: KVNamespace, key: string, value: unknown, ttlSeconds: number) {
  return kv.put(key, JSON.stringify(value), { expirationTtl: kvTtl(ttlSeconds) });
}

async function writeTokens(
  kv: KVNamespace,
  settings: TokenSettings,
  family: FamilyRecord,
  familyId: string,
  scopes: string[],
  previous: string | null,
): Promise<IssuedTokens> {
  const iat = nowSeconds();
  const accessToken = generateAccessToken();
  const refreshToken = generateRefreshToken();
  const [atHash, rtHash] = await Promise.all([sha256Hex(accessToken), sha256Hex(refreshToken)]);
  const atExp = iat + settings.accessTtlSeconds;
  const rtExp = iat + settings.refreshTtlSeconds;

  family.previous = previous;
  family.current = rtHash;
  family.exp = rtExp;
  family.access_tokens = [...family.access_tokens.filter((t) => t.exp > iat), { hash: atHash, exp: atExp }];

  const access: AccessTokenRecord = { client_id: family.client_id, scopes, family_id: familyId, iat, exp: atExp };
  const refresh: RefreshTokenRecord = { client_id: family.client_id, family_id: familyId, iat, exp: rtExp };
  await Promise.all([
    putJson(kv, kvKeys.accessToken(atHash), access, settings.accessTtlSeconds),
    putJson(kv, kvKeys.refreshToken(rtHash), refresh, settings.refreshTtlSeconds),
    putJson(kv, kvKeys.tokenFamily(family.client_id, familyId), family, settings.refreshTtlSeconds),
  ]);
  return { access_token: accessToken, refresh_token: refreshToken, expires_in: settings.accessTtlSeconds, scopes };
}

/** A new grant: a fresh family with its first access and refresh tokens. */
export function issueTokens(kv: KVNamespace, settings: TokenSettings, clientId: string, scopes: string[]) {
  const family: FamilyRecord = {
    client_id: clientId,
    scopes,
    current: "",
    previous: null,
    revoked: false,
    access_tokens: [],
    exp: 0,
  };
  return writeTokens(kv, settings, family, crypto.randomUUID(), scopes, null);
}

export type RefreshOutcome =
  | { ok: true; tokens: IssuedTokens }
  | { ok: false; error: "invalid_grant" | "invalid_scope"; description: string };

export async function refreshTokens(
  kv: KVNamespace,
  settings: TokenSettings,
  clientId: string,
  refreshToken: string,
  requestedScopes: string[] | null,
  clientScopes: readonly string[],
): Promise<RefreshOutcome> {
  const invalid = { ok: false, error: "invalid_grant", description: "The refresh token is invalid, expired or revoked." } as const;
  if (!refreshToken.startsWith(REFRESH_TOKEN_PREFIX)) return invalid;
  const hash = await sha256Hex(refreshToken);
  const record = await getJson<RefreshTokenRecord>(kv, kvKeys.refreshToken(hash));
  if (!record || record.exp <= nowSeconds() || record.client_id !== clientId) return invalid;
  const familyKey = kvKeys.tokenFamily(record.client_id, record.family_id);
  const family = await getJson<FamilyRecord>(kv, familyKey);
  if (!family || family.revoked) return invalid;

  if (hash !== family.current && hash !== family.previous) {
    await revokeFamily(kv, familyKey, family);
    return { ok: false, error: "invalid_grant", description: "The refresh token was already used; its grant is revoked." };
  }
  const scopes = requestedScopes ?? family.scopes;
  if (!scopes.every((s) => family.scopes.includes(s)))
    return { ok: false, error: "invalid_scope", description: "The scope exceeds the scope originally granted." };
  // A grant renewed without a scope parameter keeps its scopes; if the client has lost some of
  // them since, the grant is void. Revoking it costs the client nothing: client_credentials
  // gets it tokens with the scopes it holds now.
  if (!scopes.every((s) => clientScopes.includes(s))) {
    await revokeFamily(kv, familyKey, family);
    return {
      ok: false,
      error: "invalid_grant",
      description: "The grant holds scopes the client no longer has, so it is revoked; request new tokens with client_credentials.",
    };
  }

  // The token just used becomes `previous` either way: using `current` retires the one before
  // it; retrying with `previous` replaces a `current` that the client never received.
  return { ok: true, tokens: await writeTokens(kv, settings, family, record.family_id, scopes, hash) };
}

async function revokeFamily(kv: KVNamespace, familyKey: string, family: FamilyRecord) {
  family.revoked = true;
  const ttl = Math.max(family.exp - nowSeconds(), 0);
  await Promise.all([
    putJson(kv, familyKey, { ...family, access_tokens: [] }, ttl),
    ...family.access_tokens.map((t) => kv.delete(kvKeys.accessToken(t.hash))),
  ]);
}

export async function readAccessToken(kv: KVNamespace, token: string): Promise<AccessTokenRecord | null> {
  if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return null;
  const record = await getJson<AccessTokenRecord>(kv, kvKeys.accessToken(await sha256Hex(token)));
  return record && record.exp > nowSeconds() ? record : null;
}

export interface Introspection {
  active: boolean;
  scope?: string;
  client_id?: string;
  /**
   * RFC 7662 §2.2: the token type of RFC 6749 §5.1 (the access token's "Bearer"), not the kind of
   * token; a refresh token has no such type, so its answer leaves the field out.
   */
  token_type?: "Bearer";
  exp?: number;
  iat?: number;
}

/** RFC 7662: only the client a token was issued to learns anything about it. */
export async function introspect(kv: KVNamespace, clientId: string, token: string): Promise<Introspection> {
  const access = await readAccessToken(kv, token);
  if (access) {
    return access.client_id === clientId
      ? { active: true, scope: access.scopes.join(" "), client_id: access.client_id, token_type: "Bearer", exp: access.exp, iat: access.iat }
      : { active: false };
  }
  const live = await liveRefreshToken(kv, token);
  if (!live || live.record.client_id !== clientId) return { active: false };
  const { record, family } = live;
  return { active: true, scope: family.scopes.join(" "), client_id: record.client_id, exp: record.exp, iat: record.iat };
}

async function liveRefreshToken(kv: KVNamespace, token: string) {
  if (!token.startsWith(REFRESH_TOKEN_PREFIX)) return null;
  const hash = await sha256Hex(token);
  const record = await getJson<RefreshTokenRecord>(kv, kvKeys.refreshToken(hash));
  if (!record || record.exp <= nowSeconds()) return null;
  const familyKey = kvKeys.tokenFamily(record.client_id, record.family_id);
  const family = await getJson<FamilyRecord>(kv, familyKey);
  if (!family || family.revoked || (hash !== family.current && hash !== family.previous)) return null;
  return { record, family, familyKey };
}

/** RFC 7009: revoking a refresh token revokes its grant; tokens of other clients are left alone. */
export async function revokeToken(kv: KVNamespace, clientId: string, token: string): Promise<void> {
  if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
    const hash = await sha256Hex(token);
    const record = await getJson<AccessTokenRecord>(kv, kvKeys.accessToken(hash));
    if (record?.client_id === clientId) await kv.delete(kvKeys.accessToken(hash));
    return;
  }
  const live = await liveRefreshToken(kv, token);
  if (live && live.record.client_id === clientId) await revokeFamily(kv, live.familyKey, live.family);
}

/** Revokes every grant of a client (deleted client). KV's list is eventually consistent too. */
export async function revokeClientTokens(kv: KVNamespace, clientId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await kv.list({ prefix: kvKeys.tokenFamiliesOf(clientId), cursor });
    for (const { name } of page.keys) {
      const family = await getJson<FamilyRecord>(kv, name);
      if (family && !family.revoked) await revokeFamily(kv, name, family);
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
}
