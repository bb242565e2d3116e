// OAuth 2.0 client credentials (RFC 6749 §4.4) against POST /oauth/token: one access token kept and
// shared by every request, renewed shortly before it expires, one token request at a time.
import { type FetchLike, type RetryOptions, retryingFetch } from "./retry.js";

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
export class TokenRequestError extends Error {
  override readonly name = "TokenRequestError";
  constructor(
    readonly status: number,
    /** RFC 6749 error code: `invalid_client`, `invalid_scope`, `temporarily_unavailable`, … */
    readonly error: string,
    readonly errorDescription: string | undefined,
  ) {
    super(`POST /oauth/token → ${status} ${error}${errorDescription ? `: ${errorDescription}` : ""}`);
  }
}

const DEFAULT_RENEW_BEFORE_SECONDS = 60;

/** application/x-www-form-urlencoded, as RFC 6749 §2.3.1 asks before Basic's base64. */
const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");

interface Kept {
  token: string;
  /** When to ask for the next one (ms): expiry minus the renewal margin. */
  renewAt: number;
}

export function clientCredentials(options: ClientCredentialsOptions): TokenProvider {
  if (!options.clientId || !options.clientSecret)
    throw new TypeError("clientCredentials: clientId and clientSecret are required");
  const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/oauth/token`;
  const now = options.now ?? Date.now;
  const marginMs = (options.renewBeforeSeconds ?? DEFAULT_RENEW_BEFORE_SECONDS) * 1000;
  const transport: FetchLike = options.fetch ?? ((request, init) => fetch(request, init));
  // A repeated token request at worst issues a second token that expires unused, so every
  // token request may be retried, although it is a POST without an Idempotency-Key.
  const send = options.retry === false ? transport : retryingFetch(transport, { ...options.retry, repeatable: () => true });
  let kept: Kept | undefined;
  let pending: Promise<string> | undefined;

  async function requestToken(): Promise<string> {
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (options.scope) form.set("scope", options.scope);
    const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" });
    if (options.authMethod === "client_secret_post") {
      form.set("client_id", options.clientId);
      form.set("client_secret", options.clientSecret);
    } else {
      headers.set("Authorization", `Basic ${btoa(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`)}`);
    }
    const asked = now();
    const response = await send(new Request(endpoint, { method: "POST", headers, body: form.toString() }));
    const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!response.ok || typeof body?.access_token !== "string") {
      const error = typeof body?.error === "string" ? body.error : "invalid_response";
      const description = typeof body?.error_description === "string" ? body.error_description : undefined;
      throw new TokenRequestError(response.status, error, description);
    }
    const lifetimeMs = (typeof body.expires_in === "number" ? body.expires_in : 0) * 1000;
    // Counted from when it was asked for, so the time the request took is on the safe side.
    kept = { token: body.access_token, renewAt: asked + lifetimeMs - Math.min(marginMs, lifetimeMs / 2) };
    return body.access_token;
  }

  return {
    getToken() {
      if (kept && now() < kept.renewAt) return Promise.resolve(kept.token);
      pending ??= requestToken().finally(() => {
        pending = undefined;
      });
      return pending;
    },
    invalidate(token) {
      if (kept?.token === token) kept = undefined;
    },
  };
}
