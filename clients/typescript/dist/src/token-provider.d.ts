import { type FetchLike, type RetryOptions } from "./retry.js";
export interface ClientCredentialsOptions {
    /** The API's origin, e.g. `https://quiz-api.example.com`; tokens come from `<baseUrl>/oauth/token`. */
    baseUrl: string;
    /** `cli_…` */
    clientId: string;
    clientSecret: string;
    /** Space-separated scopes to ask for; default: every scope the client has. */
    scope?: string;
    /**
     * How the secret travels (RFC 6749 §2.3.1): `client_secret_basic` (default), HTTP Basic; or
     * `client_secret_post`, in the form body.
     */
    authMethod?: "client_secret_basic" | "client_secret_post";
    /** Renew a token this long before it expires (default 60 s; at most half its lifetime). */
    renewBeforeSeconds?: number;
    /** A fetch to send token requests with; default: the global fetch. */
    fetch?: FetchLike;
    /** Retries of a 429, 503 or network error (default: as the client's); `false`: none. */
    retry?: RetryOptions | false;
    /** The clock, in ms (tests). */
    now?: () => number;
}
/** Gives access tokens to a client: `createQuizClient({ baseUrl, tokenProvider })`. */
export interface TokenProvider {
    /** A token valid beyond the renewal margin: the kept one, or a new one. Concurrent calls share one request. */
    getToken(): Promise<string>;
    /** Drops `token` if it is the one kept (the API answered 401 invalid_token), so that the next getToken() asks anew. */
    invalidate(token: string): void;
}
/** What /oauth/token answered instead of a token (RFC 6749 §5.2), or an answer that was no token. */
export declare class TokenRequestError extends Error {
    readonly status: number;
    /** RFC 6749 error code: `invalid_client`, `invalid_scope`, `temporarily_unavailable`, … */
    readonly error: string;
    readonly errorDescription: string | undefined;
    readonly name = "TokenRequestError";
    constructor(status: number, 
    /** RFC 6749 error code: `invalid_client`, `invalid_scope`, `temporarily_unavailable`, … */
    error: string, errorDescription: string | undefined);
}
export declare function clientCredentials(options: ClientCredentialsOptions): TokenProvider;
