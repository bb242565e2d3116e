import { sql } from "drizzle-orm";
import { apiKeys, apiKeyUsage } from "../db/auth-schema";
import type { Database } from "../env";
import { log } from "../lib/log";
import type { Later } from "../lib/time";
import { confirmApiKeys } from "./api-keys";

/**
 * API key usage is counted in isolate memory and written to D1 behind the responses, one batch
 * per flush: the request that finds nothing pending schedules the next flush `flushDelayMs`
 * later (USAGE_FLUSH_SECONDS, 9 s by default, inside the 10 s within which §3 wants usage
 * current). So a key in use costs one flush per 9 s at most, whatever its rate, and no request
 * waits on it. An isolate evicted before its flush loses what it had pending.
 *
 * The flush's batch also reads the flushed keys' records from D1 and hands them to the API-key
 * cache (confirmApiKeys): a key in steady use is never read from KV, and a revocation or rotation
 * made elsewhere reaches an isolate using the key by its next flush.
 */

interface Pending {
  keyId: string;
  date: string;
  requests: number;
  errors: number;
  lastUsedAt: string;
}

export class UsageCounter {
  private pending = new Map<string, Pending>();
  private flushScheduled = false;

  constructor(private readonly now: () => number = Date.now) {}

  record(db: Database, keyId: string, failed: boolean, later: Later, flushDelayMs: number): void {
    const iso = new Date(this.now()).toISOString();
    const date = iso.slice(0, 10);
    const slot = `${keyId}|${date}`;
    const entry = this.pending.get(slot) ?? { keyId, date, requests: 0, errors: 0, lastUsedAt: iso };
    entry.requests += 1;
    if (failed) entry.errors += 1;
    if (iso > entry.lastUsedAt) entry.lastUsedAt = iso;
    this.pending.set(slot, entry);
    if (this.flushScheduled) return;
    // Only the request that schedules the flush waits for it: a promise must not cross requests.
    this.flushScheduled = true;
    later(flushDelayMs, () => {
      this.flushScheduled = false;
      return this.flush(db);
    });
  }

  private async flush(db: Database): Promise<void> {
    const entries = [...this.pending.values()];
    this.pending.clear();
    if (entries.length === 0) return;
    const counts = entries.flatMap((e) => [
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
    const keyIds = [...new Set(entries.map((e) => e.keyId))];
    // One JSON parameter, not one per key: D1 binds at most 100.
    const records = db
      .select()
      .from(apiKeys)
      .where(sql`${apiKeys.id} IN (SELECT value FROM json_each(${JSON.stringify(keyIds)}))`);
    const startedAt = this.now();
    try {
      const results = await db.batch([records, ...counts]);
      confirmApiKeys(results[0], startedAt);
    } catch (error) {
      // Usage is best effort; never let it fail a request. Put the counts back for the next flush.
      for (const e of entries) {
        const slot = `${e.keyId}|${e.date}`;
        const current = this.pending.get(slot);
        this.pending.set(
          slot,
          current ? { ...current, requests: current.requests + e.requests, errors: current.errors + e.errors } : e,
        );
      }
      log.error("usage flush failed", { error: String(error) });
    }
  }
}

/** The isolate's usage counts: one per isolate, as the API-key cache it confirms. */
export const isolateUsage = new UsageCounter();
