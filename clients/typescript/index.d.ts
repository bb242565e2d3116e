import type { Client, ClientOptions } from "openapi-fetch";
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
/**
 * A client that sends `Authorization: Bearer <apiKey | accessToken>` with every request, and
 * echoes the latest `X-D1-Bookmark` it has received, so that each call reads every write the
 * client made or saw before it, whichever replica answers (a header you pass yourself wins).
 */
export declare function createQuizClient(options: QuizClientOptions): QuizClient;
