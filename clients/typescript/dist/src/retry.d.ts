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
export declare const RETRY_DEFAULTS: Required<RetryOptions>;
export declare const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
/** Whether sending this request again cannot do a thing twice. */
export declare function isRepeatable(request: Request): boolean;
/** Retry-After (RFC 9110 §10.2.3) in ms: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export declare function retryAfterMs(value: string | null, now?: number): number | undefined;
/** Full jitter: a wait drawn from [0, min(maxDelayMs, baseDelayMs · 2^(retry − 1))). */
export declare function backoffMs(retry: number, options: Required<RetryOptions>, random?: () => number): number;
/**
 * The wait before retry number `retry` after `response`, or undefined when the response is final:
 * a status other than 429 and 503, or a Retry-After longer than maxDelayMs. Retry-After is a
 * minimum; a little jitter on top keeps clients that were refused together from returning together.
 */
export declare function retryDelayMs(response: Response, retry: number, options: Required<RetryOptions>, random?: () => number, now?: number): number | undefined;
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
export declare function retryingFetch(next: FetchLike, options?: RetryingFetchOptions): FetchLike;
