/** ISO 8601 UTC with milliseconds, e.g. 2026-11-22T08:00:00.000Z. */
export const isoNow = (now = Date.now()): string => new Date(now).toISOString();

/** Unix time in whole seconds (token `iat` and `exp`). */
export const unixSeconds = (now = Date.now()): number => Math.floor(now / 1000);

/**
 * Work for after the response: `task` runs `delayMs` from now (0: at once). In a request it is
 * held open by that request's `waitUntil` (laterVia); a cost simulation passes a virtual clock's.
 */
export type Later = (delayMs: number, task: () => Promise<void>) => void;

/** Later, through a request's waitUntil: only the request that schedules a task waits for it. */
export const laterVia =
  (waitUntil: (promise: Promise<unknown>) => void): Later =>
  (delayMs, task) =>
    waitUntil((delayMs > 0 ? new Promise((resolve) => setTimeout(resolve, delayMs)) : Promise.resolve()).then(task));
