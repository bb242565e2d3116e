import { drizzle } from "drizzle-orm/d1";
import type { Database } from "../env";
import { ApiError } from "../lib/errors";

/** A D1 bookmark as D1 writes it (docs/api.md); anything else is refused before any query. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** The header a client echoes to read its own writes from any replica, and that every /v1 answer carries. */
export const BOOKMARK_HEADER = "X-D1-Bookmark";

/** The binding each session was opened on: per-isolate caches keyed by the database use it. */
const bindings = new WeakMap<object, object>();

/**
 * A request's database: a D1 session (read replication's Sessions API) that starts from the
 * client's bookmark, so that it sees every write the bookmark covers, or unconstrained, so that
 * its first read may go to the nearest replica. Writes go to the primary either way.
 */
export function sessionDatabase(binding: D1Database, bookmark: string | undefined) {
  if (bookmark !== undefined && !BOOKMARK.test(bookmark))
    throw new ApiError(
      "invalid_bookmark",
      `${BOOKMARK_HEADER} must be a bookmark D1 returned (as the last response carried it).`,
    );
  const session = binding.withSession(bookmark ?? "first-unconstrained");
  bindings.set(session, binding);
  // A session has D1's prepare and batch, which is all the query builder and the services use.
  const db = drizzle(session as unknown as D1Database) as Database;
  return { db, session };
}

/** The database binding behind `db`, whether `db` runs in a session or on the binding itself. */
export const bindingOf = (db: Database): object => bindings.get(db.$client) ?? db.$client;

/** The latest bookmark of the session `db` runs in; null outside a session or before any query. */
export function sessionBookmark(db: Database): string | null {
  const client = db.$client as unknown as Partial<D1DatabaseSession>;
  return typeof client.getBookmark === "function" ? client.getBookmark() : null;
}
