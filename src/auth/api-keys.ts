import { eq } from "drizzle-orm";
import { apiKeys } from "../db/schema";
import type { Database } from "../env";
import { sha256Hex } from "../lib/crypto";
import { kvKeys } from "../lib/kv-keys";

/** What authentication needs to know of a key; cached in KV under the key's hash. */
export interface ApiKeyRecord {
  id: string;
  scopes: string[];
  expires_at: string | null;
  revoked: boolean;
}

/**
 * How long a KV copy of a key record may serve before D1 is asked again: the bound on how late
 * a revocation or rotation made elsewhere is seen (plus KV's own propagation, up to ~60 s).
 * 60 s is also the shortest expiration KV accepts.
 */
export const API_KEY_CACHE_TTL_SECONDS = 60;

/** An unknown key is cached too, so that guessing does not reach D1 each time. */
const UNKNOWN: ApiKeyRecord = { id: "", scopes: [], expires_at: null, revoked: true };

export type Row = typeof apiKeys.$inferSelect;

export const toRecord = (row: Row): ApiKeyRecord => ({
  id: row.id,
  scopes: row.scopes,
  expires_at: row.expiresAt,
  revoked: row.revokedAt !== null,
});

/**
 * Finds the key: one KV read when warm; on a miss one D1 query, then the record is written to
 * KV after the response (waitUntil). Returns null for unknown keys.
 */
export async function lookupApiKey(
  kv: KVNamespace,
  db: Database,
  key: string,
  waitUntil: (promise: Promise<unknown>) => void,
): Promise<ApiKeyRecord | null> {
  const hash = await sha256Hex(key);
  const cacheKey = kvKeys.apiKey(hash);
  const cached = await kv.get<ApiKeyRecord>(cacheKey, "json");
  if (cached) return cached.id ? cached : null;
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, hash));
  const record = row ? toRecord(row) : UNKNOWN;
  waitUntil(kv.put(cacheKey, JSON.stringify(record), { expirationTtl: API_KEY_CACHE_TTL_SECONDS }));
  return row ? record : null;
}

/** Writes a changed key (revoked, rotated) through to the cache, so this location sees it at once. */
export function refreshApiKeyCache(kv: KVNamespace, row: Row): Promise<void> {
  return kv.put(kvKeys.apiKey(row.keyHash), JSON.stringify(toRecord(row)), {
    expirationTtl: API_KEY_CACHE_TTL_SECONDS,
  });
}
