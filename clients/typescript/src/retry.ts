// Retries of 429, 503 and network errors, with exponential backoff and full jitter, honouring
// Retry-After. A request is sent again only when that cannot do a thing twice: its method is
// idempotent (RFC 9110 §9.2.2) or it carries an Idempotency-Key, which the API answers by replaying
// the first answer (a POST always carries one: see idempotency.ts).

/** What the client sends requests with: a fetch, as openapi-fetch calls it. */
export type FetchLike = (request: Request, init?: RequestInit) => Promise<Response>;

export interface RetryOptions {
  /** Attempts in all, the first one included (default 4; 1 turns retries off). */
  maxAttempts?: number;
  /** The ceiling of the first backoff in ms (default 500); it doubles with each attempt. */
  baseDelayMs?: number;
  /**
   * The longest wait before an attempt, in ms (default 60 000, the API's default rate-limit
   * window). A Retry-After longer than this is not waited for: the 429 or 503 is answered at once.
   */
  maxDelayMs?: number;
}

export const RETRY_DEFAULTS: Required<RetryOptions> = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 60_000 };

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** 429: refused before it was handled; 503: the API or a part it needs is unavailable for now. */
const RETRIED_STATUSES = new Set([429, 503]);
/** RFC 9110 §9.2.2: sending these twice has the effect of sending them once. */
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]);

/** Whether sending this request again cannot do a thing twice. */
export function isRepeatable(request: Request): boolean {
  return IDEMPOTENT_METHODS.has(request.method.toUpperCase()) || request.headers.has(IDEMPOTENCY_KEY_HEADER);
}

/** Retry-After (RFC 9110 §10.2.3) in ms: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its month ("Thu, 26 Nov 2026 10:00:05 GMT"); Date.parse alone would read "-3" as a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Full jitter: a wait drawn from [0, min(maxDelayMs, baseDelayMs · 2^(retry − 1))). */
export function backoffMs(retry: number, options: Required<RetryOptions>, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The wait before retry number `retry` after `response`, or undefined when the response is final:
 * a status other than 429 and 503, or a Retry-After longer than maxDelayMs. Retry-After is a
 * minimum; a little jitter on top keeps clients that were refused together from returning together.
 */
export function retryDelayMs(
  response: Response,
  retry: number,
  options: Required<RetryOptions>,
  random: () => number = Math.random,
  now = Date.now(),
): number | undefined {
  if (!RETRIED_STATUSES.has(response.status)) return undefined;
  const after = retryAfterMs(response.headers.get("Retry-After"), now);
  if (after === undefined) return backoffMs(retry, options, random);
  if (after > options.maxDelayMs) return undefined;
  return Math.min(options.maxDelayMs, after + Math.floor(random() * options.baseDelayMs));
}

/** fetch rejects with a TypeError when no answer came (refused, reset, DNS); an abort is a DOMException. */
const isNetworkError = (error: unknown) => error instanceof TypeError;

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export interface RetryingFetchOptions extends RetryOptions {
  /** Whether a request may be sent again; default isRepeatable. */
  repeatable?: (request: Request) => boolean;
  /** For tests: the source of jitter. */
  random?: () => number;
}

/**
 * A fetch that sends a request up to maxAttempts times while the answer is a 429 or 503 or no
 * answer comes, each attempt a copy of the request (same headers, so the same Idempotency-Key).
 * The caller's abort signal ends the waiting too.
 */
export function retryingFetch(next: FetchLike, options: RetryingFetchOptions = {}): FetchLike {
  const policy: Required<RetryOptions> = {
    maxAttempts: Math.max(1, Math.floor(options.maxAttempts ?? RETRY_DEFAULTS.maxAttempts)),
    baseDelayMs: options.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs,
  };
  const repeatable = options.repeatable ?? isRepeatable;
  const random = options.random ?? Math.random;
  return async (request, init) => {
    const attempts = repeatable(request) ? policy.maxAttempts : 1;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= attempts;
      // The body of a sent request is used up: send copies while another attempt may follow.
      const sending = last ? request : request.clone();
      let response: Response;
      try {
        response = await next(sending, init);
      } catch (error) {
        if (last || !isNetworkError(error) || request.signal.aborted) throw error;
        await sleep(backoffMs(attempt, policy, random), request.signal);
        continue;
      }
      const wait = last ? undefined : retryDelayMs(response, attempt, policy, random);
      if (wait === undefined) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}
