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

/** A client that sends `Authorization: Bearer <apiKey | accessToken>` with every request. */
export function createQuizClient(options: QuizClientOptions): QuizClient {
  const credential = options.apiKey ?? options.accessToken;
  if (typeof credential !== "string" || credential === "")
    throw new TypeError("createQuizClient: apiKey or accessToken is required");
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: { ...options.headers, Authorization: `Bearer ${credential}` },
  });
}
