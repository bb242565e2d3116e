import { type SQL, sql } from "drizzle-orm";
import { statement } from "../db/statements";
import { ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX } from "../domain/credential-format";
import type { Database } from "../env";
import { sha256Hex } from "../lib/crypto";
import { kvKeys } from "../lib/kv-keys";
import { isoNow, unixSeconds as nowSeconds } from "../lib/time";
import type { QueueBindings } from "../queue/messages";
import { send } from "../queue/send";

/**
 * Revoking OAuth grants: the family is marked revoked in D1 first, then every access token it
 * recorded is deleted from KV (see oauth-tokens.ts for why no token outlives its family).
 */

/** Where revocation deletes tokens, and the queue that finishes a revocation too large for one invocation. */
export type TokenStores = Pick<Env, "KV"> & QueueBindings<"revoked_tokens">;

/**
 * KV deletes one invocation makes at most. An invocation may make 1 000 operations on KV and other
 * bindings (Workers KV limits), and the request has made a few already. A revocation with more
 * live access tokens deletes this many at once and hands the rest to the queue, whose consumer
 * deletes them in invocations of its own (revokedTokensSweep): any number of tokens, never a 500.
 */
const MAX_KV_DELETES_PER_INVOCATION = 900;

/**
 * RFC 7009: revoking a refresh token revokes its grant (whichever of the grant's refresh tokens
 * it is); revoking an access token deletes it. Tokens of other clients are left alone.
 */
export async function revokeToken(db: Database, stores: TokenStores, clientId: string, token: string): Promise<void> {
  if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
    const key = kvKeys.accessToken(await sha256Hex(token));
    const record = await stores.KV.get<{ client_id: string }>(key, "json");
    if (record?.client_id === clientId) await stores.KV.delete(key);
    return;
  }
  if (!token.startsWith(REFRESH_TOKEN_PREFIX)) return;
  const hash = await sha256Hex(token);
  await revokeFamilies(
    db,
    stores,
    clientId,
    sql`SELECT f.id FROM oauth_refresh_tokens r JOIN oauth_token_families f ON f.id = r.family_id WHERE r.hash = ${hash} AND f.client_id = ${clientId}`,
  );
}

/**
 * Revokes the families `familyIds` (a subquery) of client `clientId` selects, then deletes their
 * live access tokens from KV. One D1 batch: the UPDATE, then the select of the families'
 * unexpired access tokens — of families revoked earlier too, so that a retry after a failed KV
 * delete finishes the job.
 */
export async function revokeFamilies(db: Database, stores: TokenStores, clientId: string, familyIds: SQL): Promise<void> {
  const [, live] = await db.$client.batch<{ hash: string }>([
    statement(
      db,
      sql`UPDATE oauth_token_families SET revoked_at = ${isoNow()} WHERE id IN (${familyIds}) AND revoked_at IS NULL`,
    ),
    liveAccessTokens(db, sql`family_id IN (${familyIds})`),
  ]);
  await deleteAccessTokens(db, stores, clientId, live?.results ?? []);
}

/** The hashes of unexpired access tokens matching `where`, one more than an invocation deletes (to tell that some are left). */
const liveAccessTokens = (db: Database, where: SQL) =>
  statement(
    db,
    sql`SELECT hash FROM oauth_access_tokens WHERE ${where} AND expires_at > ${nowSeconds()} LIMIT ${MAX_KV_DELETES_PER_INVOCATION + 1}`,
  );

/**
 * Deletes access tokens from KV. Past the per-invocation bound, the deleted ones' rows are
 * forgotten (a row of a revoked family is a KV key still to delete) and the queue is asked to
 * delete the rest of the client's.
 */
async function deleteAccessTokens(db: Database, stores: TokenStores, clientId: string, rows: { hash: string }[]): Promise<void> {
  const batch = rows.slice(0, MAX_KV_DELETES_PER_INVOCATION).map((r) => r.hash);
  await Promise.all(batch.map((hash) => stores.KV.delete(kvKeys.accessToken(hash))));
  if (rows.length <= MAX_KV_DELETES_PER_INVOCATION) return;
  await statement(
    db,
    sql`DELETE FROM oauth_access_tokens WHERE hash IN (SELECT value FROM json_each(${JSON.stringify(batch)}))`,
  ).run();
  await send(stores, [{ kind: "revoked_tokens", client_id: clientId }]);
}

/**
 * The queue's part of a large revocation: the next MAX_KV_DELETES_PER_INVOCATION live access
 * tokens of the client's revoked families deleted from KV and forgotten, and the queue asked
 * again while any are left. A message that fails is retried; deleting twice is harmless.
 */
export async function sweepRevokedTokens(db: Database, stores: TokenStores, clientId: string): Promise<void> {
  const revoked = sql`SELECT id FROM oauth_token_families WHERE client_id = ${clientId} AND revoked_at IS NOT NULL`;
  const live = await liveAccessTokens(db, sql`client_id = ${clientId} AND family_id IN (${revoked})`).all<{ hash: string }>();
  const rows = live.results;
  const batch = rows.slice(0, MAX_KV_DELETES_PER_INVOCATION).map((r) => r.hash);
  await Promise.all(batch.map((hash) => stores.KV.delete(kvKeys.accessToken(hash))));
  await statement(
    db,
    sql`DELETE FROM oauth_access_tokens WHERE hash IN (SELECT value FROM json_each(${JSON.stringify(batch)}))`,
  ).run();
  if (rows.length > MAX_KV_DELETES_PER_INVOCATION) await send(stores, [{ kind: "revoked_tokens", client_id: clientId }]);
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
 * can succeed either. Pass 1 spends at most MAX_KV_DELETES_PER_INVOCATION KV deletes (a client
 * with more live access tokens has the rest deleted by the queue); pass 2 deletes only tokens
 * issued while pass 1 ran, normally none, so the two stay within the 1 000 KV operations of one
 * invocation.
 */
export async function revokeClientTokens(
  db: Database,
  stores: TokenStores,
  clientId: string,
  changes: D1PreparedStatement[],
): Promise<D1Result[]> {
  const families = sql`SELECT id FROM oauth_token_families WHERE client_id = ${clientId}`;
  await revokeFamilies(db, stores, clientId, families);
  const unrevoked = sql`SELECT id FROM oauth_token_families WHERE client_id = ${clientId} AND revoked_at IS NULL`;
  const [stragglers, , ...changed] = await db.$client.batch<{ hash: string }>([
    liveAccessTokens(db, sql`family_id IN (${unrevoked})`),
    statement(
      db,
      sql`UPDATE oauth_token_families SET revoked_at = ${isoNow()} WHERE client_id = ${clientId} AND revoked_at IS NULL`,
    ),
    ...changes,
  ]);
  await deleteAccessTokens(db, stores, clientId, stragglers?.results ?? []);
  return changed;
}
