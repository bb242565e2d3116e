// @quiz-api/client: createQuizClient, a thin wrapper around openapi-fetch. index.ts is the source;
// index.js and index.d.ts are compiled from it and schema.d.ts is generated from openapi.json, all by
// `npm run client:generate` at the repository's root (do not edit those by hand).
import type { Client, ClientOptions } from "openapi-fetch";
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

/** A typed openapi-fetch client for the quiz API: `client.GET("/v1/quizzes", …)`, `client.POST(…)`, … */
export type QuizClient = Client<paths>;

interface CommonOptions {
  /** The API's origin, e.g. `https://quiz-api.example.com` (paths start with `/v1/…`). */
  baseUrl: string;
  /** A fetch to send requests with (tests, proxies, retries); default: the global fetch. */
  fetch?: ClientOptions["fetch"];
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

interface ApiKeyAuth {
  /** An API key (`qz_live_…`). */
  apiKey: string;
  accessToken?: undefined;
}

interface AccessTokenAuth {
  /** An OAuth 2.0 access token (`qz_at_…`). */
  accessToken: string;
  apiKey?: undefined;
}

/** Exactly one of apiKey and accessToken. */
export type QuizClientOptions = CommonOptions & (ApiKeyAuth | AccessTokenAuth);

/** The header that carries D1's bookmark both ways (read-your-writes across read replicas). */
const BOOKMARK = "X-D1-Bookmark";

/**
 * A client that sends `Authorization: Bearer <apiKey | accessToken>` with every request, and
 * echoes the latest `X-D1-Bookmark` it has received, so that each call reads every write the
 * client made or saw before it, whichever replica answers (a header you pass yourself wins).
 */
export function createQuizClient(options: QuizClientOptions): QuizClient {
  const credential = options.apiKey ?? options.accessToken;
  if (typeof credential !== "string" || credential === "")
    throw new TypeError("createQuizClient: apiKey or accessToken is required");
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: { ...options.headers, Authorization: `Bearer ${credential}` },
  });
  let bookmark: string | undefined;
  client.use({
    onRequest({ request }) {
      if (bookmark !== undefined && !request.headers.has(BOOKMARK)) request.headers.set(BOOKMARK, bookmark);
      return request;
    },
    onResponse({ response }) {
      // Bookmarks sort in the order of the writes they cover: keep the latest.
      const received = response.headers.get(BOOKMARK);
      if (received && (bookmark === undefined || received > bookmark)) bookmark = received;
      return response;
    },
  });
  return client;
}
