import type { z } from "@hono/zod-openapi";
import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { newApiKey, type Row, refreshApiKeyCache } from "../../auth/api-keys";
import { apiKeys, apiKeyUsage } from "../../db/auth-schema";
import { statement } from "../../db/statements";
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

export async function createApiKey(db: Database, input: { name: string; scopes: string[]; expires_at?: string | null }) {
  const { key, row } = await newApiKey({ ...input, expiresAt: input.expires_at ?? null });
  await db.insert(apiKeys).values(row);
  return { ...serializeApiKey(row), key };
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
export async function rotateApiKey(db: Database, kv: KVNamespace, id: string, graceSeconds: number) {
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
  // The old key is claimed only while it is still unrotated and unrevoked, and the successor is
  // inserted only where that claim stands: of two concurrent rotations, one makes a key.
  const [claim] = await db.$client.batch([
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
  ]);
  if (claim?.meta.changes !== 1) throw conflict("already_rotated", "The key was rotated or revoked meanwhile; read it again.");
  await refreshCacheAfterCommit(kv, updated);
  return { ...serializeApiKey(row), key };
}

/** Revokes at once here (the KV copy is overwritten); elsewhere within the cache's staleness bound. */
export async function revokeApiKey(db: Database, kv: KVNamespace, id: string) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: isoNow() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning();
  if (!row) {
    await getApiKeyRow(db, id); // 404 if it never existed; revoking twice is a no-op.
    return;
  }
  await refreshCacheAfterCommit(kv, row);
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
