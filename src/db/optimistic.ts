import { ApiError } from "../lib/errors";
import { isoNow } from "../lib/time";

/**
 * Optimistic writes: read the row, compute the new one (and the event describing the change)
 * in JS, and write only where the row is still what was read (its updated_at, or another value
 * that every write changes); the event is conditioned on that write. A miss means another write
 * committed in between: read again and retry. Each miss is someone else's success, so this many
 * attempts get through this many concurrent writers.
 */
export const WRITE_ATTEMPTS = 10;

/**
 * The updated_at of a write over a row read with `read`: now, but strictly later than `read`, so
 * that two writes in the same millisecond still leave different values and a stale write cannot
 * match.
 */
export const updatedAfter = (read: string): string => isoNow(Math.max(Date.now(), Date.parse(read) + 1));

/** After WRITE_ATTEMPTS misses: 409, retry later. */
export const concurrentUpdate = (what: string) =>
  new ApiError("concurrent_update", `${what} kept changing while it was written; retry.`);
