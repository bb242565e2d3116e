// @quiz-api/client: a typed openapi-fetch client for the quiz API, with retries, an Idempotency-Key
// on every POST, OAuth client credentials and the D1 bookmark echo. This file and src/ are the
// source; dist/ (ES module, CommonJS and their declarations) is built from them and schema.d.ts is
// generated from openapi.json, all by `npm run client:generate` at the repository's root.
import type { Client, ClientOptions } from "openapi-fetch";
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";
import { type FetchLike, IDEMPOTENCY_KEY_HEADER, type RetryOptions, retryingFetch } from "./src/retry.js";
import type { TokenProvider } from "./src/token-provider.js";

export type { components, operations, paths } from "./schema.js";
export { type Problem, QuizApiError } from "./src/errors.js";
export { type ListItem, type ListPage, type ListPath, type PaginateOptions, paginate } from "./src/paginate.js";
export { type FetchLike, RETRY_DEFAULTS, type RetryOptions } from "./src/retry.js";
export {
  type ClientCredentialsOptions,
  clientCredentials,
  type TokenProvider,
  TokenRequestError,
} from "./src/token-provider.js";

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

/** The header that carries D1's bookmark both ways (read-your-writes across read replicas). */
const BOOKMARK_HEADER = "X-D1-Bookmark";

/** A 401 whose credential was refused as invalid or expired (RFC 6750 §3.1), not a missing one. */
const isInvalidToken = (response: Response) =>
  response.status === 401 && /error="invalid_token"/.test(response.headers.get("WWW-Authenticate") ?? "");

/**
 * Each attempt with a token from the provider; after a 401 invalid_token (revoked, or expired
 * early) the token is dropped and the request sent once more with a new one.
 */
function withTokens(next: FetchLike, provider: TokenProvider): FetchLike {
  const send = async (request: Request, init: RequestInit | undefined, token: string) => {
    request.headers.set("Authorization", `Bearer ${token}`);
    return next(request, init);
  };
  return async (request, init) => {
    const token = await provider.getToken();
    const response = await send(request.clone(), init, token);
    if (!isInvalidToken(response)) return response;
    provider.invalidate(token);
    await response.body?.cancel();
    return send(request, init, await provider.getToken());
  };
}

/**
 * Every POST carries an Idempotency-Key (a caller's own wins), set once before the first attempt so
 * that each retry carries the same one: the API then runs the request at most once and answers a
 * repeat with the first answer (`Idempotent-Replayed: true`).
 */
function withIdempotencyKeys(next: FetchLike): FetchLike {
  return (request, init) => {
    if (request.method.toUpperCase() === "POST" && !request.headers.has(IDEMPOTENCY_KEY_HEADER))
      request.headers.set(IDEMPOTENCY_KEY_HEADER, crypto.randomUUID());
    return next(request, init);
  };
}

/**
 * A client that authenticates every request (`Authorization: Bearer …`), retries 429, 503 and
 * network errors where that is safe, gives every POST an Idempotency-Key, and echoes the latest
 * `X-D1-Bookmark` it has received, so that each call reads every write the client made or saw
 * before it, whichever replica answers (a header you pass yourself wins).
 */
export function createQuizClient(options: QuizClientOptions): QuizClient {
  const provider = options.tokenProvider;
  const credential = options.apiKey ?? options.accessToken;
  if (provider === undefined && (typeof credential !== "string" || credential === ""))
    throw new TypeError("createQuizClient: apiKey, accessToken or tokenProvider is required");
  let transport: FetchLike = options.fetch ?? ((request, init) => fetch(request, init));
  if (provider) transport = withTokens(transport, provider);
  if (options.retry !== false) transport = retryingFetch(transport, options.retry);
  transport = withIdempotencyKeys(transport);

  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: transport as ClientOptions["fetch"],
    headers: { ...options.headers, ...(credential === undefined ? {} : { Authorization: `Bearer ${credential}` }) },
  });
  let bookmark: string | undefined;
  client.use({
    onRequest({ request }) {
      if (bookmark !== undefined && !request.headers.has(BOOKMARK_HEADER)) request.headers.set(BOOKMARK_HEADER, bookmark);
      return request;
    },
    onResponse({ response }) {
      // Bookmarks sort in the order of the writes they cover: keep the latest.
      const received = response.headers.get(BOOKMARK_HEADER);
      if (received && (bookmark === undefined || received > bookmark)) bookmark = received;
      return response;
    },
  });
  return client;
}
