import { sql } from "drizzle-orm";
import { apiKeys, apiKeyUsage } from "../db/auth-schema";
import type { Database } from "../env";
import { log } from "../lib/log";
import type { Later } from "../lib/time";
import { confirmApiKeys } from "./api-keys";

/**
 * API key usage is counted in isolate memory and written to D1 behind the responses, one batch
 * per write, at most `flushDelayMs` (USAGE_FLUSH_SECONDS, 55 s by default) after the first request
 * it holds: usage is current within the 60 s docs/api.md promises, and a key in use costs one write batch per
 * 55 s or so whatever its rate (a D1 row written costs what a million rows read do). No request
 * waits on it. An isolate evicted before a write loses what it held.
 *
 * Workers cancels a request's waitUntil work 30 s after its response, so no one timer can wait
 * 55 s. The wait is carried by ticks instead: a request arms a tick (TICK_MS later, in its own
 * waitUntil) when the latest one is half a tick old, so the latest tick is always a recent
 * request's. A tick writes when the next tick would come after the deadline, or when no later
 * tick was armed (no request for half a tick: the traffic may have stopped, and nothing would
 * come back for what is held).
 *
 * Every tick also re-reads, at most once per CONFIRM_MS, the records of the keys used since the
 * last read and hands them to the API-key cache (confirmApiKeys): a key in steady use is never
 * read from KV, and a revocation or rotation made elsewhere reaches an isolate using the key
 * within 10 s. Reading rows is what D1 bills least; the write is what this spaces out.
 */

/** The longest a tick waits: well inside the 30 s Workers gives a response's waitUntil work. */
const TICK_MS = 9_000;
/** How often the keys in use are read again (API-key memory copies live 10 s). */
const CONFIRM_MS = 9_000;

interface Pending {
  keyId: string;
  date: string;
  requests: number;
  errors: number;
  lastUsedAt: string;
}

export class UsageCounter {
  private pending = new Map<string, Pending>();
  /** When the oldest request held was counted; null when nothing is held. */
  private firstAt: number | null = null;
  /** Keys used since their records were last read. */
  private seen = new Set<string>();
  private confirmedAt = Number.NEGATIVE_INFINITY;
  /** The latest tick: when it was armed, and its number. */
  private armedAt = Number.NEGATIVE_INFINITY;
  private generation = 0;

  constructor(private readonly now: () => number = Date.now) {}

  record(db: Database, keyId: string, failed: boolean, later: Later, flushDelayMs: number): void {
    const now = this.now();
    const iso = new Date(now).toISOString();
    const date = iso.slice(0, 10);
    const slot = `${keyId}|${date}`;
    const entry = this.pending.get(slot) ?? { keyId, date, requests: 0, errors: 0, lastUsedAt: iso };
    entry.requests += 1;
    if (failed) entry.errors += 1;
    if (iso > entry.lastUsedAt) entry.lastUsedAt = iso;
    this.pending.set(slot, entry);
    this.firstAt ??= now;
    this.seen.add(keyId);
    const tick = Math.min(TICK_MS, flushDelayMs);
    if (now - this.armedAt < tick / 2) return;
    // Only the request that arms a tick waits for it: a promise must not cross requests.
    const generation = ++this.generation;
    this.armedAt = now;
    later(tick, () => this.onTick(db, generation, tick, flushDelayMs));
  }

  private async onTick(db: Database, generation: number, tick: number, flushDelayMs: number): Promise<void> {
    const now = this.now();
    const nextTickAt = generation === this.generation ? null : this.armedAt + tick;
    const due = this.firstAt !== null && (nextTickAt === null || nextTickAt > this.firstAt + flushDelayMs);
    const confirm = this.seen.size > 0 && (due || now - this.confirmedAt >= CONFIRM_MS);
    if (due) await this.write(db, now);
    else if (confirm) await this.confirm(db, now);
  }

  /** Reads the records of the keys used since the last read: the API-key cache starts again from them. */
  private async confirm(db: Database, now: number): Promise<void> {
    const keyIds = [...this.seen];
    this.seen.clear();
    this.confirmedAt = now;
    try {
      confirmApiKeys(await this.records(db, keyIds), now);
    } catch (error) {
      log.error("api key confirmation failed", { error: String(error) });
    }
  }

  private records(db: Database, keyIds: string[]) {
    // One JSON parameter, not one per key: D1 binds at most 100.
    return db
      .select()
      .from(apiKeys)
      .where(sql`${apiKeys.id} IN (SELECT value FROM json_each(${JSON.stringify(keyIds)}))`);
  }

  /** Writes what is held, and reads the keys used back in the same batch. */
  private async write(db: Database, now: number): Promise<void> {
    const entries = [...this.pending.values()];
    const firstAt = this.firstAt;
    const keyIds = [...new Set([...this.seen, ...entries.map((e) => e.keyId)])];
    this.pending.clear();
    this.firstAt = null;
    this.seen.clear();
    this.confirmedAt = now;
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
    try {
      const results = await db.batch([this.records(db, keyIds), ...counts]);
      confirmApiKeys(results[0], now);
    } catch (error) {
      // Usage is best effort; never let it fail a request. Put the counts back for the next write.
      for (const e of entries) {
        const slot = `${e.keyId}|${e.date}`;
        const current = this.pending.get(slot);
        this.pending.set(
          slot,
          current ? { ...current, requests: current.requests + e.requests, errors: current.errors + e.errors } : e,
        );
      }
      this.firstAt = Math.min(firstAt ?? now, this.firstAt ?? now);
      log.error("usage flush failed", { error: String(error) });
    }
  }
}

/** The isolate's usage counts: one per isolate, as the API-key cache it confirms. */
export const isolateUsage = new UsageCounter();
