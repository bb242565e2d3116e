import { type SQL, eq, sql } from "drizzle-orm";
import { oauthRefreshTokens, oauthTokenFamilies } from "../db/schema";
import { statement } from "../db/statements";
import {
  ACCESS_TOKEN_PREFIX,
  REFRESH_TOKEN_PREFIX,
  generateAccessToken,
  generateRefreshToken,
} from "../domain/credential-format";
import type { Database } from "../env";
import { sha256Hex } from "../lib/crypto";
import { kvKeys, kvTtl } from "../lib/kv-keys";
import { isoNow } from "../lib/time";

/**
 * OAuth tokens, named everywhere by their SHA-256.
 *
 * Access tokens live in KV with a KV expiration and an `exp` checked on every read, so that
 * authenticating one costs one KV read. Everything else lives in D1, where writes serialise: the
 * grant (token family, `oauth_token_families`), every refresh token it issued
 * (`oauth_refresh_tokens`, so that an old one coming back is recognised) and every access token
 * it issued (`oauth_access_tokens`, so that revoking finds them all).
 *
 * Refresh tokens rotate: each use issues a new one. The family remembers the newest (`current`)
 * and the one it replaced (`previous`); `previous` may be retried for a short grace after
 * `current` was issued (the client may have lost the answer). Any other older token coming back
 * means it leaked, and the whole family is revoked.
 *
 * Why no token outlives its family, under any interleaving of refreshes and revocations:
 * - D1 is linearizable (one writer, each batch a transaction), and a family changes only by two
 *   conditional UPDATEs: a refresh's, which requires the generation it read and `revoked_at IS
 *   NULL`, and a revocation's, which sets `revoked_at`. A refresh's rows (its refresh and access
 *   token) are written in the same batch as its UPDATE and only if that UPDATE happened.
 * - A refresh writes its access token to KV *before* its D1 batch, and answers only after the
 *   batch committed. A revocation commits its UPDATE, then selects the family's access tokens
 *   (same batch, after the UPDATE), then deletes each from KV.
 * - So a refresh either commits before the revocation's UPDATE — then its access-token row is
 *   there for the revocation's select, and its KV write, made earlier still, is deleted by the
 *   revocation's later KV delete — or after it, and then its UPDATE finds the family revoked,
 *   changes nothing, and the refresh deletes its own KV write and answers `invalid_grant`. Of
 *   concurrent refreshes, all of which read the same generation, exactly one UPDATE matches; the
 *   others clean up the same way. A token that is never answered may live in KV briefly; nobody
 *   holds it.
 * - Issuing a new family inserts it only while the client still exists with the secret that
 *   authenticated the request, which closes the same race against deleting the client or
 *   replacing its secret (see revokeClientTokens).
 * KV is eventually consistent, so "dead" holds at once where the delete ran and within KV's
 * propagation time (≈ 60 s) elsewhere.
 */

export interface AccessTokenRecord {
  client_id: string;
  scopes: string[];
  family_id: string;
  iat: number;
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

/** The client a grant is made to, as client authentication found it. */
export interface GrantingClient {
  id: string;
  /** The secret hash that authenticated the request: tokens are issued only while it is still the client's. */
  secretHash: string;
  scopes: readonly string[];
}

/**
 * How long a superseded refresh token may still be used, in seconds from its successor's issue
 * (CONTRACT §6, the lost-response grace): time enough for a client to retry a refresh whose
 * answer it lost, too short for a leaked token to be worth much. After it, using the token is
 * reuse and revokes the family.
 */
export const REFRESH_GRACE_SECONDS = 60;

/**
 * KV deletes one revocation makes at most. An invocation may make 1 000 operations on KV and other
 * bindings (Workers KV limits), and the request has made a few already. A revocation with more
 * live access tokens deletes this many, forgets their rows and fails, so that a retry carries on
 * where it stopped instead of failing at the same place for ever.
 */
const MAX_KV_DELETES_PER_REVOCATION = 900;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A new access and refresh token for a family, not yet stored anywhere. */
interface Minted {
  issued: IssuedTokens;
  familyId: string;
  clientId: string;
  atHash: string;
  rtHash: string;
  iat: number;
  atExp: number;
  rtExp: number;
}

async function mint(settings: TokenSettings, clientId: string, familyId: string, scopes: string[]): Promise<Minted> {
  const iat = nowSeconds();
  const accessToken = generateAccessToken();
  const refreshToken = generateRefreshToken();
  const [atHash, rtHash] = await Promise.all([sha256Hex(accessToken), sha256Hex(refreshToken)]);
  return {
    issued: { access_token: accessToken, refresh_token: refreshToken, expires_in: settings.accessTtlSeconds, scopes },
    familyId,
    clientId,
    atHash,
    rtHash,
    iat,
    atExp: iat + settings.accessTtlSeconds,
    rtExp: iat + settings.refreshTtlSeconds,
  };
}

/** The one KV write of an issue or a refresh; made before the D1 batch that records the token (see above). */
function putAccessToken(kv: KVNamespace, settings: TokenSettings, m: Minted) {
  const record: AccessTokenRecord = { client_id: m.clientId, scopes: m.issued.scopes, family_id: m.familyId, iat: m.iat, exp: m.atExp };
  return kv.put(kvKeys.accessToken(m.atHash), JSON.stringify(record), { expirationTtl: kvTtl(settings.accessTtlSeconds) });
}

/** The rows of a new refresh and access token, inserted only where `happened` holds. */
function recordTokens(db: Database, m: Minted, happened: SQL): D1PreparedStatement[] {
  return [
    statement(db, sql`INSERT INTO oauth_refresh_tokens (hash, family_id, expires_at) SELECT ${m.rtHash}, ${m.familyId}, ${m.rtExp} WHERE ${happened}`),
    statement(
      db,
      sql`INSERT INTO oauth_access_tokens (hash, family_id, client_id, expires_at) SELECT ${m.atHash}, ${m.familyId}, ${m.clientId}, ${m.atExp} WHERE ${happened}`,
    ),
  ];
}

/**
 * A new grant: a fresh family with its first access and refresh tokens. One KV write and one D1
 * batch. Null when the client was deleted or its secret replaced since it authenticated.
 */
export async function issueTokens(
  db: Database,
  kv: KVNamespace,
  settings: TokenSettings,
  client: GrantingClient,
  scopes: string[],
): Promise<IssuedTokens | null> {
  const m = await mint(settings, client.id, crypto.randomUUID(), scopes);
  await putAccessToken(kv, settings, m);
  const [family] = await db.$client.batch([
    statement(
      db,
      sql`INSERT INTO oauth_token_families
            (id, client_id, scopes, generation, current_hash, previous_hash, current_issued_at, expires_at, revoked_at, created_at)
          SELECT ${m.familyId}, ${client.id}, ${JSON.stringify(scopes)}, 0, ${m.rtHash}, NULL, ${m.iat}, ${m.rtExp}, NULL, ${isoNow(m.iat * 1000)}
          WHERE EXISTS (SELECT 1 FROM oauth_clients WHERE id = ${client.id} AND secret_hash = ${client.secretHash})`,
    ),
    ...recordTokens(db, m, sql`EXISTS (SELECT 1 FROM oauth_token_families WHERE id = ${m.familyId})`),
  ]);
  if (family?.meta.changes !== 1) {
    await kv.delete(kvKeys.accessToken(m.atHash));
    return null;
  }
  return m.issued;
}

export type RefreshOutcome =
  | { ok: true; tokens: IssuedTokens }
  | { ok: false; error: "invalid_grant" | "invalid_scope"; description: string };

const INVALID = { ok: false, error: "invalid_grant", description: "The refresh token is invalid, expired or revoked." } as const;

/** A refresh token's row with its family's; one D1 read. */
function readRefreshToken(db: Database, hash: string) {
  return db
    .select({
      familyId: oauthTokenFamilies.id,
      clientId: oauthTokenFamilies.clientId,
      scopes: oauthTokenFamilies.scopes,
      generation: oauthTokenFamilies.generation,
      currentHash: oauthTokenFamilies.currentHash,
      previousHash: oauthTokenFamilies.previousHash,
      currentIssuedAt: oauthTokenFamilies.currentIssuedAt,
      revokedAt: oauthTokenFamilies.revokedAt,
      tokenExpiresAt: oauthRefreshTokens.expiresAt,
    })
    .from(oauthRefreshTokens)
    .innerJoin(oauthTokenFamilies, eq(oauthTokenFamilies.id, oauthRefreshTokens.familyId))
    .where(eq(oauthRefreshTokens.hash, hash))
    .get();
}

type RefreshTokenRow = NonNullable<Awaited<ReturnType<typeof readRefreshToken>>>;

/** Whether a refresh token may be used now: the current one, or the previous one within the grace. */
function usable(row: RefreshTokenRow, hash: string, now: number): "current" | "previous" | false {
  if (hash === row.currentHash) return "current";
  if (hash === row.previousHash && now <= row.currentIssuedAt + REFRESH_GRACE_SECONDS) return "previous";
  return false;
}

/** One D1 read, one KV write and one D1 batch (plus a revocation when the token was reused or the grant is void). */
export async function refreshTokens(
  db: Database,
  kv: KVNamespace,
  settings: TokenSettings,
  client: GrantingClient,
  refreshToken: string,
  requestedScopes: string[] | null,
): Promise<RefreshOutcome> {
  if (!refreshToken.startsWith(REFRESH_TOKEN_PREFIX)) return INVALID;
  const hash = await sha256Hex(refreshToken);
  const row = await readRefreshToken(db, hash);
  const now = nowSeconds();
  if (!row || row.tokenExpiresAt <= now || row.clientId !== client.id || row.revokedAt !== null) return INVALID;

  if (!usable(row, hash, now)) {
    await revokeFamilies(db, kv, sql`SELECT ${row.familyId}`);
    return { ok: false, error: "invalid_grant", description: "The refresh token was already used; its grant is revoked." };
  }
  const scopes = requestedScopes ?? row.scopes;
  if (!scopes.every((s) => row.scopes.includes(s)))
    return { ok: false, error: "invalid_scope", description: "The scope exceeds the scope originally granted." };
  // A grant renewed without a scope parameter keeps its scopes; if the client has lost some of
  // them since, the grant is void. Revoking it costs the client nothing: client_credentials
  // gets it tokens with the scopes it holds now.
  if (!scopes.every((s) => client.scopes.includes(s))) {
    await revokeFamilies(db, kv, sql`SELECT ${row.familyId}`);
    return {
      ok: false,
      error: "invalid_grant",
      description: "The grant holds scopes the client no longer has, so it is revoked; request new tokens with client_credentials.",
    };
  }

  // The token just used becomes `previous` either way: using `current` retires the one before
  // it; retrying with `previous` replaces a `current` that the client never received.
  const m = await mint(settings, client.id, row.familyId, scopes);
  await putAccessToken(kv, settings, m);
  const won = sql`EXISTS (SELECT 1 FROM oauth_token_families WHERE id = ${m.familyId} AND generation = ${row.generation + 1} AND current_hash = ${m.rtHash})`;
  const [rotated] = await db.$client.batch([
    statement(
      db,
      sql`UPDATE oauth_token_families
          SET generation = generation + 1, previous_hash = ${hash}, current_hash = ${m.rtHash}, current_issued_at = ${m.iat}, expires_at = ${m.rtExp}
          WHERE id = ${m.familyId} AND generation = ${row.generation} AND revoked_at IS NULL`,
    ),
    ...recordTokens(db, m, won),
    // Expired tokens of the family need no row: they can be neither used nor revoked.
    statement(db, sql`DELETE FROM oauth_access_tokens WHERE family_id = ${m.familyId} AND expires_at <= ${m.iat} AND ${won}`),
    statement(db, sql`DELETE FROM oauth_refresh_tokens WHERE family_id = ${m.familyId} AND expires_at <= ${m.iat} AND ${won}`),
  ]);
  if (rotated?.meta.changes !== 1) {
    // Another refresh of this family, or a revocation, committed since the read.
    await kv.delete(kvKeys.accessToken(m.atHash));
    return {
      ok: false,
      error: "invalid_grant",
      description: "The refresh token was used concurrently by another request, or its grant was revoked meanwhile.",
    };
  }
  return { ok: true, tokens: m.issued };
}

export async function readAccessToken(kv: KVNamespace, token: string): Promise<AccessTokenRecord | null> {
  if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return null;
  const record = await kv.get<AccessTokenRecord>(kvKeys.accessToken(await sha256Hex(token)), "json");
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
export async function introspect(db: Database, kv: KVNamespace, clientId: string, token: string): Promise<Introspection> {
  const access = await readAccessToken(kv, token);
  if (access) {
    return access.client_id === clientId
      ? { active: true, scope: access.scopes.join(" "), client_id: access.client_id, token_type: "Bearer", exp: access.exp, iat: access.iat }
      : { active: false };
  }
  if (!token.startsWith(REFRESH_TOKEN_PREFIX)) return { active: false };
  const hash = await sha256Hex(token);
  const row = await readRefreshToken(db, hash);
  const now = nowSeconds();
  if (!row || row.tokenExpiresAt <= now || row.clientId !== clientId || row.revokedAt !== null) return { active: false };
  const state = usable(row, hash, now);
  if (!state) return { active: false };
  // Only the current token's issue time is kept (the grace runs from it).
  const iat = state === "current" ? { iat: row.currentIssuedAt } : {};
  return { active: true, scope: row.scopes.join(" "), client_id: row.clientId, exp: row.tokenExpiresAt, ...iat };
}

/**
 * RFC 7009: revoking a refresh token revokes its grant (whichever of the grant's refresh tokens
 * it is); revoking an access token deletes it. Tokens of other clients are left alone.
 */
export async function revokeToken(db: Database, kv: KVNamespace, clientId: string, token: string): Promise<void> {
  if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
    const key = kvKeys.accessToken(await sha256Hex(token));
    const record = await kv.get<AccessTokenRecord>(key, "json");
    if (record?.client_id === clientId) await kv.delete(key);
    return;
  }
  if (!token.startsWith(REFRESH_TOKEN_PREFIX)) return;
  const hash = await sha256Hex(token);
  await revokeFamilies(
    db,
    kv,
    sql`SELECT f.id FROM oauth_refresh_tokens r JOIN oauth_token_families f ON f.id = r.family_id WHERE r.hash = ${hash} AND f.client_id = ${clientId}`,
  );
}

/**
 * Revokes the families `familyIds` (a subquery) selects, then deletes their live access tokens
 * from KV. One D1 batch: the UPDATE, then the select of the families' unexpired access tokens —
 * of families revoked earlier too, so that a retry after a failed KV delete finishes the job.
 */
async function revokeFamilies(db: Database, kv: KVNamespace, familyIds: SQL): Promise<void> {
  const [, live] = await db.$client.batch<{ hash: string }>([
    statement(db, sql`UPDATE oauth_token_families SET revoked_at = ${isoNow()} WHERE id IN (${familyIds}) AND revoked_at IS NULL`),
    liveAccessTokens(db, sql`family_id IN (${familyIds})`),
  ]);
  await deleteAccessTokens(db, kv, live?.results ?? []);
}

/** The hashes of unexpired access tokens matching `where`, one more than a revocation deletes (to tell that some are left). */
const liveAccessTokens = (db: Database, where: SQL) =>
  statement(
    db,
    sql`SELECT hash FROM oauth_access_tokens WHERE ${where} AND expires_at > ${nowSeconds()} LIMIT ${MAX_KV_DELETES_PER_REVOCATION + 1}`,
  );

/** Deletes access tokens from KV; past the per-invocation bound, forgets the deleted ones' rows and fails (retry to go on). */
async function deleteAccessTokens(db: Database, kv: KVNamespace, rows: { hash: string }[]): Promise<void> {
  const batch = rows.slice(0, MAX_KV_DELETES_PER_REVOCATION).map((r) => r.hash);
  await Promise.all(batch.map((hash) => kv.delete(kvKeys.accessToken(hash))));
  if (rows.length <= MAX_KV_DELETES_PER_REVOCATION) return;
  await statement(db, sql`DELETE FROM oauth_access_tokens WHERE hash IN (SELECT value FROM json_each(${JSON.stringify(batch)}))`).run();
  throw new Error(`Revoked in D1, but more than ${MAX_KV_DELETES_PER_REVOCATION} access tokens are left to delete from KV: retry.`);
}

/**
 * Revokes every grant of a client, and runs `changes` (deleting the client, or replacing its
 * secret, and whatever must commit with that) in the same batch as the last step; returns their
 * results.
 *
 * Two passes, so that a failure leaves the client as it was and the request can be retried:
 * 1. revoke every family of the client and delete the live access tokens of all of them from KV
 *    (again those of families revoked before: a retry finishes a failed attempt);
 * 2. one batch that selects the access tokens of families still unrevoked (issued while pass 1
 *    ran), revokes those families and runs `changes`; then delete those from KV.
 * A grant issued after pass 2 is impossible: issueTokens inserts a family only while the client
 * exists with the secret that authenticated, and every older family is revoked, so no refresh
 * can succeed either. Pass 1 spends at most MAX_KV_DELETES_PER_REVOCATION KV deletes (a client
 * with more live access tokens takes retries); pass 2 deletes only tokens issued while pass 1
 * ran, normally none, so the two stay within the 1 000 KV operations of one invocation.
 */
export async function revokeClientTokens(db: Database, kv: KVNamespace, clientId: string, changes: SQL[]): Promise<D1Result[]> {
  const families = sql`SELECT id FROM oauth_token_families WHERE client_id = ${clientId}`;
  await revokeFamilies(db, kv, families);
  const unrevoked = sql`SELECT id FROM oauth_token_families WHERE client_id = ${clientId} AND revoked_at IS NULL`;
  const [stragglers, , ...changed] = await db.$client.batch<{ hash: string }>([
    liveAccessTokens(db, sql`family_id IN (${unrevoked})`),
    statement(db, sql`UPDATE oauth_token_families SET revoked_at = ${isoNow()} WHERE client_id = ${clientId} AND revoked_at IS NULL`),
    ...changes.map((change) => statement(db, change)),
  ]);
  await deleteAccessTokens(db, kv, stragglers?.results ?? []);
  return changed;
}
