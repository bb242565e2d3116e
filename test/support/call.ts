import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import type { components, paths } from "../../clients/typescript/schema";
import { newApiKey } from "../../src/auth/api-keys";
import { apiKeys } from "../../src/db/auth-schema";
import worker from "../../src/index";
import type { Scope } from "../../src/lib/scopes";

/**
 * Calls to the worker typed by the published contract: the typed client's `paths`
 * (clients/typescript/schema.d.ts, generated from GET /openapi.json).
 *
 *   const res = await call(`/v1/submissions/${id}/grade`, { method: "POST" });
 *   res.json.score;            // number: the 2xx body of gradeSubmission
 *   expectProblem(res, 404);   // the problem body, typed
 *
 * The operation is found from the path (a literal or a template literal; a query string is
 * ignored) and the method (default GET, or POST when there is a body). `json` is typed as the
 * operation's success body, `problem` as its error body: both hold the same parsed answer, so
 * read the one the status says. A path no operation serves does not compile: requests that are
 * malformed on purpose (unknown paths, paths that are not in the document) use `callRaw`.
 */

export const BASE = "http://quiz.test";

type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

export interface CallOptions {
  method?: Method;
  body?: unknown;
  /** A raw body, sent as is (for malformed JSON and other media types). */
  raw?: BodyInit;
  headers?: Record<string, string>;
  /**
   * The credential, sent as Authorization: Bearer. Default: an admin key made for this test
   * file; `false` sends none.
   */
  auth?: string | false;
}

/** Options of `callRaw`: any method, for requests malformed on purpose. */
export type RawCallOptions = Omit<CallOptions, "method"> & { method?: string };

/** What the worker answered. */
export interface Answer<Json = unknown, Problem = ProblemBody> {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is empty or not JSON), typed as the operation's success body. */
  json: Json;
  /** The same parsed body, typed as the operation's error body: read it once the status says it is one. */
  problem: Problem;
}

/** RFC 9457 problem body; `code` is a plain string so that codes newer than the generated client still compile. */
type ProblemBody = Omit<components["schemas"]["Problem"], "code"> & { code: string };

type Template = keyof paths & string;
/** "/v1/quizzes/{id}/questions" → `/v1/quizzes/${string}/questions` */
type Pattern<T extends string> = T extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${string}${Pattern<Tail>}` : T;
type WithoutQuery<P extends string> = P extends `${infer Path}?${string}` ? Path : P;
/** Every path the document describes, with or without a query string. */
export type KnownPath = Pattern<Template> | `${Pattern<Template>}?${string}`;
type Candidates<P extends string> = { [T in Template]: WithoutQuery<P> extends Pattern<T> ? T : never }[Template];
/** A candidate whose pattern is narrower than T's (`/v1/quizzes/{id}/questions` is narrower than `/v1/quizzes/{id}`). */
type Narrower<T extends Template, C extends Template> = C extends T ? never : Pattern<C> extends Pattern<T> ? C : never;
/** The template of the document that serves path P: the narrowest one it matches. */
type Route<P extends string> = P extends string ? Narrowest<Candidates<P>> : never;
type Narrowest<C extends Template> = { [T in C]: [Narrower<T, C>] extends [never] ? T : never }[C];

type MethodOf<O> = O extends { method: infer M extends Method }
  ? M
  : O extends { body: unknown } | { raw: unknown }
    ? "POST"
    : "GET";
type Operation<P extends string, M extends Method> = paths[Route<P>][Lowercase<M>];
type Responses<O> = O extends { responses: infer R } ? R : never;
type BodyOf<R> = R extends { content: infer C }
  ? "application/json" extends keyof C
    ? C["application/json"]
    : C[keyof C]
  : undefined;
type SuccessStatus = 200 | 201 | 202 | 204;
type Success<O> = { [S in keyof Responses<O>]: S extends SuccessStatus ? BodyOf<Responses<O>[S]> : never }[keyof Responses<O>];
type Failure<O> = {
  [S in keyof Responses<O>]: S extends SuccessStatus ? never : Problemish<BodyOf<Responses<O>[S]>>;
}[keyof Responses<O>];
type Problemish<B> = B extends components["schemas"]["Problem"] ? ProblemBody : B;
type Found<P extends string, M extends Method, X> = [Operation<P, M>] extends [undefined]
  ? { error: `the document has no ${M} at this path` }
  : X;

/** The answer of `call(path, options)`. */
export type AnswerOf<P extends string, O = object> = P extends string
  ? Answer<Found<P, MethodOf<O>, Success<Operation<P, MethodOf<O>>>>, Failure<Operation<P, MethodOf<O>>>>
  : never;
/** A schema of the document: `Schema<"Quiz">`. */
export type Schema<N extends keyof components["schemas"]> = components["schemas"][N];

/** Inserts an API key straight into D1, as the key:create CLI does, and returns the key. */
export async function seedApiKey(scopes: Scope[], options: { name?: string; expiresAt?: string | null } = {}) {
  const { key, row } = await newApiKey({ name: options.name ?? "test", scopes, expiresAt: options.expiresAt ?? null });
  await drizzle(env.DB).insert(apiKeys).values(row);
  return { key, id: row.id };
}

let adminKey: Promise<string> | undefined;
/** The admin key of this test file (storage is per file, so each file makes its own). */
export const defaultKey = () => (adminKey ??= seedApiKey(["admin"], { name: "test admin" }).then((k) => k.key));
/** The next file makes its own admin key (test/support/fresh-storage.ts empties D1 between files). */
export const forgetDefaultKey = () => {
  adminKey = undefined;
};

/**
 * Calls the worker's fetch handler (src/index.ts's default export) with an execution context of
 * its own, as the runtime calls it for a request; typed by the document. Not through
 * `exports.default.fetch`: through the pool's loopback every call costs more the more calls the
 * file has made (about 1 ms for the first, 30 ms after a few hundred), which made request-heavy
 * suites take minutes. Work the handler leaves to `waitUntil` runs on after the answer, as deployed.
 */
export function call<P extends KnownPath, const O extends CallOptions = object>(path: P, options?: O): Promise<AnswerOf<P, O>> {
  return send(path, options) as Promise<AnswerOf<P, O>>;
}

/**
 * The worker's fetch handler for a request as is (pages, assets, oauth4webapi): what `call` sends
 * through, without `exports.default.fetch`'s cost that grows with every call (see `call`).
 */
export async function fetchWorker(request: Request): Promise<Response> {
  return await worker.fetch(request, env, createExecutionContext());
}

/**
 * The same request without the contract's types, for requests malformed on purpose and for
 * paths outside the document (pages, assets): `json` is whatever came back.
 */
export function callRaw(path: string, options: RawCallOptions = {}): Promise<Answer<unknown>> {
  return send(path, options);
}

async function send(path: string, options: RawCallOptions = {}): Promise<Answer<unknown>> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? await defaultKey() : options.auth;
  if (auth !== false && !Object.keys(headers).some((h) => h.toLowerCase() === "authorization"))
    headers.authorization = `Bearer ${auth}`;
  let body: BodyInit | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const request = new Request(`${BASE}${path}`, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
  const response = await fetchWorker(request);
  // Bytes decoded as UTF-8, as response.text() would, without workerd's warning for a body whose
  // type is not text (an export's zip or NDJSON).
  const text = new TextDecoder().decode(await response.arrayBuffer());
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text, problem: json as ProblemBody };
}

/** Asserts the shape of an RFC 9457 problem body and returns it. */
export function expectProblem(
  res: Pick<Answer, "status" | "headers" | "text"> & { json: unknown },
  status: number,
  code?: string,
) {
  if (res.status !== status || res.headers.get("content-type") !== "application/problem+json") {
    throw new Error(`expected problem ${status}${code ? ` ${code}` : ""}, got ${res.status}: ${res.text}`);
  }
  const problem = res.json as ProblemBody;
  if (code !== undefined && problem.code !== code) throw new Error(`expected code ${code}, got ${res.text}`);
  for (const field of ["type", "title", "status", "detail", "code", "request_id"]) {
    if (!(field in problem)) throw new Error(`problem body lacks ${field}: ${res.text}`);
  }
  return problem;
}
