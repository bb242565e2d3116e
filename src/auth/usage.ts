import { sql } from "drizzle-orm";
import { apiKeys, apiKeyUsage } from "../db/auth-schema";
import type { Database } from "../env";
import { log } from "../lib/log";

/**
 * API key usage is counted in isolate memory and written to D1 by one batch at most every
 * USAGE_FLUSH_DELAY_MS, after the response (waitUntil): no request waits on it, and the
 * counts are current within a few seconds. An isolate that is evicted before its flush loses
 * at most that window of counts.
 */
const USAGE_FLUSH_DELAY_MS = 1000;

interface Pending {
  keyId: string;
  date: string;
  requests: number;
  errors: number;
  lastUsedAt: string;
}

const pending = new Map<string, Pending>();
let flushScheduled = false;

export function recordUsage(
  db: Database,
  keyId: string,
  failed: boolean,
  waitUntil: (promise: Promise<unknown>) => void,
  now = new Date(),
): void {
  const iso = now.toISOString();
  const date = iso.slice(0, 10);
  const slot = `${keyId}|${date}`;
  const entry = pending.get(slot) ?? { keyId, date, requests: 0, errors: 0, lastUsedAt: iso };
  entry.requests += 1;
  if (failed) entry.errors += 1;
  if (iso > entry.lastUsedAt) entry.lastUsedAt = iso;
  pending.set(slot, entry);
  if (flushScheduled) return;
  // Only the request that schedules the flush waits for it: a promise must not cross requests.
  flushScheduled = true;
  waitUntil(
    new Promise((resolve) => setTimeout(resolve, USAGE_FLUSH_DELAY_MS)).then(() => {
      flushScheduled = false;
      return flushUsage(db);
    }),
  );
}

async function flushUsage(db: Database): Promise<void> {
  const entries = [...pending.values()];
  pending.clear();
  if (entries.length === 0) return;
  const statements = entries.flatMap((e) => [
    db
      .insert(apiKeyUsage)
      .values({ keyId: e.keyId, date: e.date, requests: e.requests, errors: e.errors })
      .onConflictDoUpdate({
        target: [apiKeyUsage.keyId, apiKeyUsage.date],
        set: {
          requests: sql`${apiKeyUsage.requests} + ${e.requests}`,
          errors: sql`${apiKeyUsage.errors} + ${e.errors}`,
        },
      }),
    db
      .update(apiKeys)
      .set({
        totalRequests: sql`${apiKeys.totalRequests} + ${e.requests}`,
        lastUsedAt: sql`max(coalesce(${apiKeys.lastUsedAt}, ''), ${e.lastUsedAt})`,
      })
      .where(sql`${apiKeys.id} = ${e.keyId}`),
  ]);
  try {
    await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
  } catch (error) {
    // Usage is best effort; never let it fail a request. Put the counts back for the next flush.
    for (const e of entries) {
      const slot = `${e.keyId}|${e.date}`;
      const current = pending.get(slot);
      pending.set(slot, current ? { ...current, requests: current.requests + e.requests, errors: current.errors + e.errors } : e);
    }
    log.error("usage flush failed", { error: String(error) });
  }
}
