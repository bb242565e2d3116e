import { getTableColumns, SQL, StringChunk } from "drizzle-orm";
import { SQLiteAsyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../env";

const dialect = new SQLiteAsyncDialect();

/**
 * A drizzle `sql` template as a D1 prepared statement. drizzle's batch() cannot carry raw SQL
 * with parameters (drizzle-orm 0.45), and conditional upserts have no query-builder form, so
 * such writes are batched on the D1 binding itself: still one atomic round trip.
 */
export function statement(db: Database, query: SQL): D1PreparedStatement {
  const { sql, params } = render(query);
  return db.$client.prepare(sql).bind(...params);
}

/** A drizzle query as a D1 prepared statement, to sit in one `$client.batch` beside raw statements. */
export function prepared(db: Database, query: { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const { sql: text, params } = query.toSQL();
  return db.$client.prepare(text).bind(...params);
}

/**
 * The text and parameters of a raw template. The grading batch's statements are templates of text,
 * values and nested templates only, and drizzle's general renderer asks of every piece whether it
 * is each kind of entity it knows (a column, a table, a view, a placeholder, …) before seeing a
 * value: on every grade, for a few hundred pieces. This walks those three kinds by `instanceof`
 * and leaves anything else (columns, tables, drizzle params) to drizzle's dialect, whole.
 */
function render(query: SQL): { sql: string; params: unknown[] } {
  const out = { text: [] as string[], params: [] as unknown[] };
  return walk(query, out) ? { sql: out.text.join(""), params: out.params } : dialect.sqlToQuery(query);
}

function walk(query: SQL, out: { text: string[]; params: unknown[] }): boolean {
  // A template that inlines its values is drizzle's to render.
  if ((query as unknown as { shouldInlineParams: boolean }).shouldInlineParams) return false;
  for (const chunk of query.queryChunks) {
    if (chunk instanceof StringChunk) out.text.push(...chunk.value);
    else if (chunk instanceof SQL) {
      if (!walk(chunk, out)) return false;
    } else if (chunk === null || (typeof chunk !== "object" && typeof chunk !== "function" && chunk !== undefined)) {
      out.text.push("?");
      out.params.push(chunk);
    } else return false;
  }
  return true;
}

/**
 * A table's rows read by hand-written SQL, mapped to what drizzle's select would give (each
 * column's own decoding: JSON parsed, and so on): the text is a constant, so nothing is built or
 * rendered per request. `columns` is the select list, in the table's order.
 */
export function tableRows<T extends SQLiteTable>(table: T) {
  const entries = Object.entries(getTableColumns(table));
  return {
    columns: entries.map(([, column]) => `"${column.name}"`).join(", "),
    map: (row: Record<string, unknown>): T["$inferSelect"] =>
      Object.fromEntries(
        entries.map(([key, column]) => {
          const value = row[column.name];
          return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
        }),
      ) as T["$inferSelect"],
    /** The same from a row of values in `columns`' order, as D1's raw() gives them (and drizzle reads selects). */
    fromValues: (values: readonly unknown[]): T["$inferSelect"] => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < entries.length; i++) {
        const [key, column] = entries[i] as (typeof entries)[number];
        const value = values[i];
        row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
      }
      return row as T["$inferSelect"];
    },
  };
}
