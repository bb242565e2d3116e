import { eq, sql } from "drizzle-orm";
import { oauthRefreshTokens, oauthTokenFamilies } from "../db/auth-schema";
import { statement } from "../db/statements";
import { REFRESH_TOKEN_PREFIX } from "../domain/credential-format";
import type { Database } from "../env";
import type { TokenSettings } from "../lib/config";
import { sha256Hex } from "../lib/crypto";
import { OAuthError } from "../lib/errors";
import { kvKeys } from "../lib/kv-keys";
import { unixSeconds as nowSeconds } from "../lib/time";
import { revokeFamilies, type TokenStores } from "./oauth-revocation";
import { type GrantingClient, type IssuedTokens, mint, putAccessToken, recordTokens } from "./oauth-tokens";

/** Refreshing a grant: rotation, the lost-response grace and reuse detection (see oauth-tokens.ts for the races). */

/**
 * How long a superseded refresh token may still be used, in seconds from its successor's issue
 * (docs/security.md, the lost-response grace): time enough for a client to retry a refresh whose
 * answer it lost, too short for a leaked token to be worth much. After it, using the token is
 * reuse and revokes the family.
 */
export const REFRESH_GRACE_SECONDS = 60;

const invalidGrant = (description = "The refresh token is invalid, expired or revoked.") =>
  new OAuthError("invalid_grant", description);

/** A refresh token's row with its family's; one D1 read. */
export function readRefreshToken(db: Database, hash: string) {
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
export function usable(row: RefreshTokenRow, hash: string, now: number): "current" | "previous" | false {
  if (hash === row.currentHash) return "current";
  if (hash === row.previousHash && now <= row.currentIssuedAt + REFRESH_GRACE_SECONDS) return "previous";
  return false;
}

/**
 * One D1 read, one KV write and one D1 batch (plus a revocation when the token was reused or the
 * grant is void). Throws invalid_grant or invalid_scope (RFC 6749 §5.2) when it refuses.
 */
export async function refreshTokens(
  db: Database,
  stores: TokenStores,
  settings: TokenSettings,
  client: GrantingClient,
  refreshToken: string,
  requestedScopes: string[] | null,
): Promise<IssuedTokens> {
  if (!refreshToken.startsWith(REFRESH_TOKEN_PREFIX)) throw invalidGrant();
  const hash = await sha256Hex(refreshToken);
  const row = await readRefreshToken(db, hash);
  const now = nowSeconds();
  if (!row || row.tokenExpiresAt <= now || row.clientId !== client.id || row.revokedAt !== null) throw invalidGrant();

  if (!usable(row, hash, now)) {
    await revokeFamilies(db, stores, client.id, sql`SELECT ${row.familyId}`);
    throw invalidGrant("The refresh token was already used; its grant is revoked.");
  }
  const scopes = requestedScopes ?? row.scopes;
  if (!scopes.every((s) => row.scopes.includes(s)))
    throw new OAuthError("invalid_scope", "The scope exceeds the scope originally granted.");
  // A grant renewed without a scope parameter keeps its scopes; if the client has lost some of
  // them since, the grant is void. Revoking it costs the client nothing: client_credentials
  // gets it tokens with the scopes it holds now.
  if (!scopes.every((s) => client.scopes.includes(s))) {
    await revokeFamilies(db, stores, client.id, sql`SELECT ${row.familyId}`);
    throw invalidGrant(
      "The grant holds scopes the client no longer has, so it is revoked; request new tokens with client_credentials.",
    );
  }

  // The token just used becomes `previous` either way: using `current` retires the one before
  // it; retrying with `previous` replaces a `current` that the client never received.
  const m = await mint(settings, client.id, row.familyId, scopes);
  await putAccessToken(stores.KV, settings, m);
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
    await stores.KV.delete(kvKeys.accessToken(m.atHash));
    throw invalidGrant("The refresh token was used concurrently by another request, or its grant was revoked meanwhile.");
  }
  return m.issued;
}
