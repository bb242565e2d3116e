import { type SQL, sql } from "drizzle-orm";
import { statement } from "../db/statements";
import { ACCESS_TOKEN_PREFIX, generateAccessToken, generateRefreshToken } from "../domain/credential-format";
import type { Database } from "../env";
import type { TokenSettings } from "../lib/config";
import { sha256Hex } from "../lib/crypto";
import { invalidClient } from "../lib/errors";
import { kvKeys, kvTtl } from "../lib/kv-keys";
import { isoNow, unixSeconds as nowSeconds } from "../lib/time";

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

/** A new access and refresh token for a family, not yet stored anywhere. */
export interface Minted {
  issued: IssuedTokens;
  familyId: string;
  clientId: string;
  atHash: string;
  rtHash: string;
  iat: number;
  atExp: number;
  rtExp: number;
}

export async function mint(settings: TokenSettings, clientId: string, familyId: string, scopes: string[]): Promise<Minted> {
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
export function putAccessToken(kv: KVNamespace, settings: TokenSettings, m: Minted) {
  const record: AccessTokenRecord = {
    client_id: m.clientId,
    scopes: m.issued.scopes,
    family_id: m.familyId,
    iat: m.iat,
    exp: m.atExp,
  };
  return kv.put(kvKeys.accessToken(m.atHash), JSON.stringify(record), { expirationTtl: kvTtl(settings.accessTtlSeconds) });
}

/** The rows of a new refresh and access token, inserted only where `happened` holds. */
export function recordTokens(db: Database, m: Minted, happened: SQL): D1PreparedStatement[] {
  return [
    statement(
      db,
      sql`INSERT INTO oauth_refresh_tokens (hash, family_id, expires_at) SELECT ${m.rtHash}, ${m.familyId}, ${m.rtExp} WHERE ${happened}`,
    ),
    statement(
      db,
      sql`INSERT INTO oauth_access_tokens (hash, family_id, client_id, expires_at) SELECT ${m.atHash}, ${m.familyId}, ${m.clientId}, ${m.atExp} WHERE ${happened}`,
    ),
  ];
}

/**
 * A new grant: a fresh family with its first access and refresh tokens. One KV write and one D1
 * batch. invalid_client when the client was deleted or its secret replaced since it authenticated.
 */
export async function issueTokens(
  db: Database,
  kv: KVNamespace,
  settings: TokenSettings,
  client: GrantingClient,
  scopes: string[],
): Promise<IssuedTokens> {
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
    throw invalidClient("The client was deleted or its secret replaced while the request ran.");
  }
  return m.issued;
}

export async function readAccessToken(kv: KVNamespace, token: string): Promise<AccessTokenRecord | null> {
  if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return null;
  const record = await kv.get<AccessTokenRecord>(kvKeys.accessToken(await sha256Hex(token)), "json");
  return record && record.exp > nowSeconds() ? record : null;
}
