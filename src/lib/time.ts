/** ISO 8601 UTC with milliseconds, e.g. 2026-11-22T08:00:00.000Z. */
export const isoNow = (now = Date.now()): string => new Date(now).toISOString();

/** Unix time in whole seconds (token `iat` and `exp`). */
export const unixSeconds = (now = Date.now()): number => Math.floor(now / 1000);
