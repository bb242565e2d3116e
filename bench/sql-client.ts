// Sends SQL to bench/sql-worker.ts (Host sql.bench on the bench's Miniflare): each call is one
// atomic D1 batch, run inside workerd.
import { request } from "./http";

export const SQL_WORKER_HOST = "sql.bench";
/** Per HTTP request: a few MB keeps each batch quick and the request small. */
const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

export interface Statement {
  sql: string;
  params: unknown[];
}

/** A drizzle query builder's SQL text and parameters. */
export function toStatement(query: { toSQL(): { sql: string; params: unknown[] } }): Statement {
  const { sql, params } = query.toSQL();
  return { sql, params };
}

export class SqlClient {
  constructor(private readonly origin: string) {}

  /** Runs the statements in batches of at most MAX_REQUEST_BYTES, in order; returns rows changed. */
  async run(statements: Statement[]): Promise<number> {
    let changes = 0;
    let batch: Statement[] = [];
    let bytes = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const res = await request(this.origin, {
        method: "POST",
        path: "/",
        headers: { host: SQL_WORKER_HOST, "content-type": "application/json" },
        body: JSON.stringify(batch),
      });
      if (res.status !== 200) throw new Error(`SQL batch failed: ${res.text.slice(0, 500)}`);
      changes += (res.json as { changes: number }).changes;
      batch = [];
      bytes = 0;
    };
    for (const s of statements) {
      const size = s.sql.length + JSON.stringify(s.params).length;
      if (bytes + size > MAX_REQUEST_BYTES) await flush();
      batch.push(s);
      bytes += size;
    }
    await flush();
    return changes;
  }
}
