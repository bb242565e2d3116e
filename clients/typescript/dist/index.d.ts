import type { Client } from "openapi-fetch";
import type { paths } from "../schema.js";
import { type FetchLike, type RetryOptions } from "./src/retry.js";
import type { TokenProvider } from "./src/token-provider.js";
export type { components, operations, paths } from "../schema.js";
export { type Problem, QuizApiError } from "./src/errors.js";
export { type ListItem, type ListPage, type ListPath, type PaginateOptions, paginate } from "./src/paginate.js";
export { type FetchLike, RETRY_DEFAULTS, type RetryOptions } from "./src/retry.js";
export { type ClientCredentialsOptions, clientCredentials, type TokenProvider, TokenRequestError, } from "./src/token-provider.js";
/** A typed openapi-fetch client for the quiz API: `client.GET("/v1/quizzes", …)`, `client.POST(…)`, … */
export type QuizClient = Client<paths>;
interface CommonOptions {
    /** The API's origin, e.g. `https://quiz-api.example.com` (paths start with `/v1/…`). */
    baseUrl: string;
    /**
     * The fetch every attempt is sent with (tests, proxies, logging); default: the global fetch. It
     * sees each attempt, retries included. A `fetch` given to one call bypasses retries and credentials.
     */
    fetch?: FetchLike;
    /** Extra headers sent with every request. */
    headers?: Record<string, string>;
    /** Retries of a 429, 503 or network error (default RETRY_DEFAULTS); `false`: none. */
    retry?: RetryOptions | false;
}
interface ApiKeyAuth {
    /** An API key (`qz_live_…`). */
    apiKey: string;
    accessToken?: undefined;
    tokenProvider?: undefined;
}
interface AccessTokenAuth {
    /** An OAuth 2.0 access token (`qz_at_…`) that you renew yourself. */
    accessToken: string;
    apiKey?: undefined;
    tokenProvider?: undefined;
}
interface TokenProviderAuth {
    /** Access tokens on demand, e.g. `clientCredentials({ … })`: renewed before expiry and after a 401 invalid_token. */
    tokenProvider: TokenProvider;
    apiKey?: undefined;
    accessToken?: undefined;
}
/** Exactly one of apiKey, accessToken and tokenProvider. */
export type QuizClientOptions = CommonOptions & (ApiKeyAuth | AccessTokenAuth | TokenProviderAuth);
/**
 * A client that authenticates every request (`Authorization: Bearer …`), retries 429, 503 and
 * network errors where that is safe, gives every POST an Idempotency-Key, and echoes the latest
 * `X-D1-Bookmark` it has received, so that each call reads every write the client made or saw
 * before it, whichever replica answers (a header you pass yourself wins).
 */
export declare function createQuizClient(options: QuizClientOptions): QuizClient;
