import type { z } from "@hono/zod-openapi";
import { asc, desc, eq, gt, sql } from "drizzle-orm";
import { newApiKey, type Row, refreshApiKeyCache } from "../../auth/api-keys";
import { commit, type WakeUps } from "../../db/after-commit";
import { apiKeys, apiKeyUsage } from "../../db/auth-schema";
import { concurrentUpdate, WRITE_ATTEMPTS } from "../../db/optimistic";
import { eventStatement } from "../../db/outbox";
import { prepared, statement } from "../../db/statements";
import type { Database } from "../../env";
import { conflict, notFound } from "../../lib/errors";
import { isoNow } from "../../lib/time";
import type { ApiKey } from "./api-keys.schemas";

/**
 * The D1 write is the truth and has committed: a failing cache write (KV refuses a second write
 * to a key within a second) must not turn it into an error, and lose a key shown once.
 */
async function refreshCacheAfterCommit(kv: KVNamespace, row: Row) {
  try {
    await refreshApiKeyCache(kv, row);
  } catch (error) {
    console.error(JSON.stringify({ level: "warn", message: "API key cache write failed", key_id: row.id, error: String(error) }));
  }
}

/** Days of usage a usage read returns, newest first. */
const USAGE_DAYS = 90;

export function serializeApiKey(row: Row): z.infer<typeof ApiKey> {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    created_at: row.createdAt,
    expires_at: row.expiresAt,
    revoked_at: row.revokedAt,
    rotated_to: row.rotatedTo,
    last_used_at: row.lastUsedAt,
  };
}

export async function createApiKey(
  db: Database,
  wakeUps: WakeUps,
  input: { name: string; scopes: string[]; expires_at?: string | null },
) {
  const { key, row } = await newApiKey({ ...input, expiresAt: input.expires_at ?? null });
  const created = serializeApiKey(row);
  // The event carries the key's metadata only: never the key, nor its hash.
  await commit(db, wakeUps, [
    prepared(db, db.insert(apiKeys).values(row)),
    eventStatement(db, { type: "api_key.created", object: created }),
  ]);
  return { ...created, key };
}

export async function listApiKeys(db: Database, after: string | undefined, limit: number) {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(after === undefined ? undefined : gt(apiKeys.id, after))
    .orderBy(asc(apiKeys.id))
    .limit(limit + 1);
  return rows.map(serializeApiKey);
}

export async function getApiKeyRow(db: Database, id: string) {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
  if (!row) throw notFound("API key");
  return row;
}

/**
 * Issues a successor with the same name, scopes and expiry; the old key expires after the
 * grace period (or keeps its earlier expiry). Both writes are one batch.
 */
export async function rotateApiKey(db: Database, wakeUps: WakeUps, kv: KVNamespace, id: string, graceSeconds: number) {
  const old = await getApiKeyRow(db, id);
  if (old.revokedAt !== null) throw notFound("API key");
  // The successor inherits the key's expiry, which a first rotation replaced by the grace end:
  // rotating twice (a retried request) would mint a key that dies with the old one.
  if (old.rotatedTo !== null)
    throw conflict("already_rotated", `The key was already rotated to ${old.rotatedTo}; rotate that key instead.`);
  if (old.expiresAt !== null && old.expiresAt <= isoNow())
    throw conflict("key_expired", "The key has expired; its successor would be expired too. Create a new key.");
  const { key, row } = await newApiKey({ name: old.name, scopes: old.scopes, expiresAt: old.expiresAt });
  const graceEnd = new Date(Date.now() + graceSeconds * 1000).toISOString();
  const oldExpiry = old.expiresAt !== null && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
  const updated: Row = { ...old, expiresAt: oldExpiry, rotatedTo: row.id };
  // The old key is claimed only while it is still unrotated and unrevoked, and the successor
  // (and then its event) is inserted only where that claim stands: of two concurrent rotations,
  // one makes a key.
  const successor = serializeApiKey(row);
  const [claim] = await commit(db, wakeUps, [
    statement(
      db,
      sql`UPDATE api_keys SET expires_at = ${oldExpiry}, rotated_to = ${row.id}
          WHERE id = ${old.id} AND rotated_to IS NULL AND revoked_at IS NULL`,
    ),
    statement(
      db,
      sql`INSERT INTO api_keys (id, name, key_hash, prefix, scopes, created_at, expires_at)
          SELECT ${row.id}, ${row.name}, ${row.keyHash}, ${row.prefix}, ${JSON.stringify(row.scopes)}, ${row.createdAt}, ${row.expiresAt}
          WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = ${old.id} AND rotated_to = ${row.id})`,
    ),
    eventStatement(db, { type: "api_key.rotated", object: { ...successor, rotated_from: old.id } }, "after-change"),
  ]);
  if (claim?.meta.changes !== 1) throw conflict("already_rotated", "The key was rotated or revoked meanwhile; read it again.");
  await refreshCacheAfterCommit(kv, updated);
  return { ...successor, key };
}

/**
 * Revokes at once here (the KV copy is overwritten); elsewhere within the cache's staleness
 * bound. The api_key.revoked event carries the key as revoked, so the write is made only while
 * the key is as read (a rotation changes its expiry); revoking twice is a no-op.
 */
export async function revokeApiKey(db: Database, wakeUps: WakeUps, kv: KVNamespace, id: string) {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const read = await getApiKeyRow(db, id);
    if (read.revokedAt !== null) return;
    const revoked: Row = { ...read, revokedAt: isoNow() };
    const [write] = await commit(db, wakeUps, [
      statement(
        db,
        sql`UPDATE api_keys SET revoked_at = ${revoked.revokedAt}
            WHERE id = ${id} AND revoked_at IS NULL AND rotated_to IS ${read.rotatedTo} AND expires_at IS ${read.expiresAt}`,
      ),
      eventStatement(db, { type: "api_key.revoked", object: serializeApiKey(revoked) }, "after-change"),
    ]);
    if (write?.meta.changes === 1) return refreshCacheAfterCommit(kv, revoked);
  }
  throw concurrentUpdate("The key");
}

export async function getUsage(db: Database, id: string) {
  const [key, days] = await db.batch([
    db.select().from(apiKeys).where(eq(apiKeys.id, id)),
    db
      .select({ date: apiKeyUsage.date, requests: apiKeyUsage.requests, errors: apiKeyUsage.errors })
      .from(apiKeyUsage)
      .where(eq(apiKeyUsage.keyId, id))
      .orderBy(desc(apiKeyUsage.date))
      .limit(USAGE_DAYS),
  ]);
  const row = key[0];
  if (!row) throw notFound("API key");
  return { key_id: row.id, total_requests: row.totalRequests, last_used_at: row.lastUsedAt, daily: days };
}
