import { eq } from "drizzle-orm";
import { apiKeys } from "../db/auth-schema";
import { displayPrefix, generateApiKey } from "../domain/credential-format";
import type { Database } from "../env";
import { sha256Hex } from "../lib/crypto";
import { newId } from "../lib/ids";
import { kvKeys } from "../lib/kv-keys";
import { isoNow, type Later } from "../lib/time";

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
const API_KEY_CACHE_TTL_SECONDS = 60;

/**
 * A verified record also stays in the isolate's memory this long, so that a warm request costs
 * no KV read at all. It adds this much to the staleness bound of a change made elsewhere; a
 * change made through this isolate replaces the memory copy at once, and each usage flush
 * (usage.ts) replaces the copies of the keys it counted with what D1 holds.
 */
const API_KEY_MEMORY_TTL_MS = 10_000;
const MEMORY_CACHE_ENTRIES = 10_000;
/** `changedAt`: when a change made through this isolate (revoke, rotate) set the copy. */
const memory = new Map<string, { record: ApiKeyRecord; until: number; changedAt?: number }>();

function remember(hash: string, record: ApiKeyRecord, now = Date.now(), changedAt?: number) {
  if (memory.size >= MEMORY_CACHE_ENTRIES && !memory.has(hash)) memory.delete(memory.keys().next().value as string);
  memory.set(hash, { record, until: now + API_KEY_MEMORY_TTL_MS, changedAt });
}

/**
 * Records read from D1 by a batch sent at `readAt` (a usage flush): this isolate's copies start
 * again from them — except a copy a change through this isolate set since, which is newer.
 */
export function confirmApiKeys(rows: readonly Row[], readAt: number): void {
  for (const row of rows) {
    const changedAt = memory.get(row.keyHash)?.changedAt;
    if (changedAt !== undefined && changedAt >= readAt) continue;
    remember(row.keyHash, toRecord(row), readAt);
  }
}

/** An unknown key is remembered too, so that guessing it again does not reach D1. */
const UNKNOWN: ApiKeyRecord = { id: "", scopes: [], expires_at: null, revoked: true };

export type Row = typeof apiKeys.$inferSelect;

const toRecord = (row: Row): ApiKeyRecord => ({
  id: row.id,
  scopes: row.scopes,
  expires_at: row.expiresAt,
  revoked: row.revokedAt !== null,
});

/** A new key row and the key itself, which exists only in the caller's hands from here on. */
export async function newApiKey(input: { name: string; scopes: string[]; expiresAt: string | null }) {
  const key = generateApiKey();
  const row: Row = {
    id: newId("apiKey"),
    name: input.name,
    keyHash: await sha256Hex(key),
    prefix: displayPrefix(key),
    scopes: input.scopes,
    createdAt: isoNow(),
    expiresAt: input.expiresAt,
    revokedAt: null,
    rotatedTo: null,
    lastUsedAt: null,
    totalRequests: 0,
  };
  return { key, row };
}

/**
 * Finds the key: from isolate memory when it was seen (or confirmed by a usage flush) in the last
 * API_KEY_MEMORY_TTL_MS, else one KV read; on a KV miss one D1 query, and the record is written
 * to KV after the response (`later`). Returns null for unknown keys. `beforeLookup` runs when
 * memory does not know the key, before KV or D1 is asked (it may throw to refuse the request cheaply).
 */
export async function lookupApiKey(
  kv: KVNamespace,
  db: Database,
  key: string,
  later: Later,
  beforeLookup: () => void = () => {},
  now = Date.now(),
): Promise<ApiKeyRecord | null> {
  const hash = await sha256Hex(key);
  const held = memory.get(hash);
  if (held && held.until > now) return held.record.id ? held.record : null;
  beforeLookup();
  const cacheKey = kvKeys.apiKey(hash);
  const cached = await kv.get<ApiKeyRecord>(cacheKey, "json");
  if (cached) {
    remember(hash, cached, now);
    return cached.id ? cached : null;
  }
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, hash));
  if (!row) {
    // Kept in memory only: made-up keys are cheap to produce, and must not cost KV writes.
    remember(hash, UNKNOWN, now);
    return null;
  }
  const record = toRecord(row);
  remember(hash, record, now);
  later(0, () => kv.put(cacheKey, JSON.stringify(record), { expirationTtl: API_KEY_CACHE_TTL_SECONDS }));
  return record;
}

/** Writes a changed key (revoked, rotated) through to both caches, so this isolate and location see it at once. */
export function refreshApiKeyCache(kv: KVNamespace, row: Row): Promise<void> {
  const now = Date.now();
  remember(row.keyHash, toRecord(row), now, now);
  return kv.put(kvKeys.apiKey(row.keyHash), JSON.stringify(toRecord(row)), {
    expirationTtl: API_KEY_CACHE_TTL_SECONDS,
  });
}
