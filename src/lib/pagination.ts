import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { type IdKind, isId } from "./ids";

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

const CURSOR_VERSION = 1;
/** Longer cursors are refused unread (a cursor is base64url of a short JSON object). */
const MAX_CURSOR_LENGTH = 200;

/**
 * Cursors are opaque to clients: base64url of the last sort key seen (an id, or a question's
 * position). Ids are time-ordered ULIDs, so `WHERE id > :after ORDER BY id LIMIT n` is keyset
 * pagination whose cost does not grow with depth.
 */
export function encodeCursor(after: string | number): string {
  return btoa(JSON.stringify({ v: CURSOR_VERSION, after }))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** A sort key: an id of a kind, a question's position, or a string key the list's own test accepts (an asset id). */
type SortKind = IdKind | "position" | { isKey: (value: string) => boolean };

function isSortKey(kind: SortKind, after: unknown): boolean {
  if (kind === "position") return typeof after === "number" && Number.isInteger(after) && after >= 0;
  if (typeof kind === "object") return typeof after === "string" && kind.isKey(after);
  return typeof after === "string" && isId(kind, after);
}

function decodeCursor<K extends SortKind>(cursor: string, kind: K): (K extends "position" ? number : string) | null {
  try {
    if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
    const json = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const parsed = JSON.parse(json) as unknown;
    if (typeof parsed !== "object" || parsed === null) return null;
    const { v, after } = parsed as { v?: unknown; after?: unknown };
    return v === CURSOR_VERSION && isSortKey(kind, after) ? (after as K extends "position" ? number : string) : null;
  } catch {
    return null;
  }
}

/** `limit` and `cursor` query parameters for a list of resources of one kind. */
export function pageQuery<K extends SortKind>(kind: K) {
  return {
    // Plain decimal digits only: Number() would also take "1e2", "0x10" and "+5".
    limit: z
      .string()
      .regex(/^[0-9]{1,3}$/, `Expected a whole number from 1 to ${MAX_PAGE_SIZE}.`)
      .transform(Number)
      .pipe(z.number().int().min(1).max(MAX_PAGE_SIZE))
      .optional()
      .transform((limit) => limit ?? DEFAULT_PAGE_SIZE)
      .openapi({
        type: "integer",
        minimum: 1,
        maximum: MAX_PAGE_SIZE,
        default: DEFAULT_PAGE_SIZE,
        description: `Page size, 1–${MAX_PAGE_SIZE}.`,
        example: DEFAULT_PAGE_SIZE,
      }),
    cursor: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        const after = decodeCursor(value, kind);
        if (after === null) {
          ctx.addIssue({ code: "custom", message: "Invalid cursor: pass a next_cursor value unchanged." });
          return z.NEVER;
        }
        return after;
      })
      .openapi({
        type: "string",
        maxLength: MAX_CURSOR_LENGTH,
        description: "Opaque cursor from a previous page's next_cursor.",
      }),
  };
}

/**
 * Trims a `limit + 1` row fetch to one page, and sets the `Link: rel="next"` header when there
 * is a next page.
 */
export function toPage<T>(c: Context, rows: T[], limit: number, sortKey: (row: T) => string | number) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const nextCursor = rows.length > limit && last !== undefined ? encodeCursor(sortKey(last)) : null;
  if (nextCursor) {
    const url = new URL(c.req.url);
    url.searchParams.set("cursor", nextCursor);
    url.searchParams.set("limit", String(limit));
    c.header("Link", `<${url.pathname}${url.search}>; rel="next"`);
  }
  return { items, nextCursor };
}

export const nextCursorSchema = z
  .string()
  .nullable()
  .openapi({ description: "Cursor of the next page, or null on the last page." });
