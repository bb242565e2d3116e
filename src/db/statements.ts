import type { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Database } from "../env";

const dialect = new SQLiteAsyncDialect();

/**
 * A drizzle `sql` template as a D1 prepared statement. drizzle's batch() cannot carry raw SQL
 * with parameters (drizzle-orm 0.45), and conditional upserts have no query-builder form, so
 * such writes are batched on the D1 binding itself: still one atomic round trip.
 */
export function statement(db: Database, query: SQL): D1PreparedStatement {
  const { sql, params } = dialect.sqlToQuery(query);
  return db.$client.prepare(sql).bind(...params);
}

/** A drizzle query as a D1 prepared statement, to sit in one `$client.batch` beside raw statements. */
export function prepared(db: Database, query: { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const { sql: text, params } = query.toSQL();
  return db.$client.prepare(text).bind(...params);
}
