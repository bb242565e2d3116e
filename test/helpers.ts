import { env, exports } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { newApiKey } from "../src/auth/api-keys";
import { apiKeys } from "../src/db/auth-schema";
import type { Scope } from "../src/lib/scopes";

export const BASE = "http://quiz.test";

export interface CallOptions {
  method?: string;
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

/** Inserts an API key straight into D1, as the key:create CLI does, and returns the key. */
export async function seedApiKey(scopes: Scope[], options: { name?: string; expiresAt?: string | null } = {}) {
  const { key, row } = await newApiKey({ name: options.name ?? "test", scopes, expiresAt: options.expiresAt ?? null });
  await drizzle(env.DB).insert(apiKeys).values(row);
  return { key, id: row.id };
}

let adminKey: Promise<string> | undefined;
/** The admin key of this test file (storage is per file, so each file makes its own). */
export const defaultKey = () => (adminKey ??= seedApiKey(["admin"], { name: "test admin" }).then((k) => k.key));

/** Calls the worker through its real fetch handler, as a client over HTTP would. */
export async function call(path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? await defaultKey() : options.auth;
  if (auth !== false && !Object.keys(headers).some((h) => h.toLowerCase() === "authorization"))
    headers.authorization = `Bearer ${auth}`;
  let body: BodyInit | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await exports.default.fetch(
    new Request(`${BASE}${path}`, { method: options.method ?? (body === undefined ? "GET" : "POST"), headers, body }),
  );
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** Asserts the shape of an RFC 9457 problem body and returns it. */
export function expectProblem(res: Awaited<ReturnType<typeof call>>, status: number, code?: string) {
  if (res.status !== status || res.headers.get("content-type") !== "application/problem+json") {
    throw new Error(`expected problem ${status}${code ? ` ${code}` : ""}, got ${res.status}: ${res.text}`);
  }
  if (code !== undefined && res.json.code !== code) throw new Error(`expected code ${code}, got ${res.text}`);
  for (const field of ["type", "title", "status", "detail", "code", "request_id"]) {
    if (!(field in res.json)) throw new Error(`problem body lacks ${field}: ${res.text}`);
  }
  return res.json as {
    type: string;
    title: string;
    status: number;
    detail: string;
    code: string;
    request_id: string;
    errors?: { path: string; message: string }[];
  };
}
