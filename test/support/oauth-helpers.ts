import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import * as oauth from "oauth4webapi";
import { expect } from "vitest";
import { oauthClients } from "../../src/db/auth-schema";
import { generateClientSecret } from "../../src/domain/credential-format";
import { sha256Hex } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";
import { BASE, fetchWorker } from "./call";

const ISSUER = new URL(BASE);

/**
 * Every secret and token the tests have held in plaintext, so that the last test can check that
 * none of them is stored anywhere.
 */
export const plaintexts = new Set<string>();

export interface SeededClient {
  client_id: string;
  client_secret: string;
}

/** Inserts an OAuth client straight into D1, as `npm run client:create` would. */
export async function seedClient(scopes: string[], secret = generateClientSecret()): Promise<SeededClient> {
  const client_id = newId("oauthClient");
  const now = new Date().toISOString();
  await drizzle(env.DB)
    .insert(oauthClients)
    .values({
      id: client_id,
      name: `test ${client_id}`,
      secretHash: await sha256Hex(secret),
      scopes,
      createdAt: now,
      updatedAt: now,
    });
  plaintexts.add(secret);
  return { client_id, client_secret: secret };
}

/**
 * The worker's own fetch handler, for oauth4webapi and raw requests alike. Each request comes from
 * a fresh client IP, so that the per-IP limit of /oauth/token (tested elsewhere) never trips here.
 */
export function workerFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  if (!headers.has("cf-connecting-ip")) headers.set("cf-connecting-ip", randomIp());
  return fetchWorker(new Request(url, { ...init, headers }));
}

const randomIp = () => `10.${[...crypto.getRandomValues(new Uint8Array(3))].join(".")}`;

/** Options for every oauth4webapi call: talk to the worker, over http (the test issuer is http://quiz.test). */
export const http = {
  [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<string, unknown>) => workerFetch(url, init as RequestInit),
  [oauth.allowInsecureRequests]: true,
};

export async function discover(): Promise<oauth.AuthorizationServer> {
  const response = await oauth.discoveryRequest(ISSUER, { ...http, algorithm: "oauth2" });
  return oauth.processDiscoveryResponse(ISSUER, response);
}

export type AuthMethod = "basic" | "post";

export const clientAuth = (client: SeededClient, method: AuthMethod = "basic") =>
  method === "basic" ? oauth.ClientSecretBasic(client.client_secret) : oauth.ClientSecretPost(client.client_secret);

/** Remembers a token response's plaintexts and hands the response back. */
function remember<T extends { access_token: string; refresh_token?: string }>(tokens: T): T {
  plaintexts.add(tokens.access_token);
  if (tokens.refresh_token) plaintexts.add(tokens.refresh_token);
  return tokens;
}

/** A client_credentials grant through oauth4webapi; rejects with its errors (ResponseBodyError …). */
export async function clientCredentials(
  as: oauth.AuthorizationServer,
  client: SeededClient,
  options: { method?: AuthMethod; scope?: string } = {},
) {
  const params: Record<string, string> = options.scope === undefined ? {} : { scope: options.scope };
  const response = await oauth.clientCredentialsGrantRequest(
    as,
    { client_id: client.client_id },
    clientAuth(client, options.method),
    params,
    http,
  );
  return remember(await oauth.processClientCredentialsResponse(as, { client_id: client.client_id }, response));
}

export async function refresh(
  as: oauth.AuthorizationServer,
  client: SeededClient,
  refreshToken: string,
  options: { method?: AuthMethod; scope?: string } = {},
) {
  const response = await oauth.refreshTokenGrantRequest(
    as,
    { client_id: client.client_id },
    clientAuth(client, options.method),
    refreshToken,
    {
      ...http,
      additionalParameters: options.scope === undefined ? undefined : { scope: options.scope },
    },
  );
  return remember(await oauth.processRefreshTokenResponse(as, { client_id: client.client_id }, response));
}

/** The OAuth error a rejected oauth4webapi call carried. */
export async function oauthErrorOf(promise: Promise<unknown>): Promise<{ error: string; status: number }> {
  const err = await promise.then(
    () => {
      throw new Error("expected an OAuth error response");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(oauth.ResponseBodyError);
  const { error, status } = err as oauth.ResponseBodyError;
  return { error, status };
}

export function basic(id: string, secret: string, encode = formUrlEncode): string {
  return `Basic ${btoa(`${encode(id)}:${encode(secret)}`)}`;
}

/** RFC 6749 §2.3.1 / application/x-www-form-urlencoded encoding of one credential. */
export const formUrlEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);

/** A raw POST to an OAuth endpoint; `body` as form parameters (a string is sent as is). */
export async function post(
  path: string,
  body: Record<string, string> | string | undefined,
  headers: Record<string, string> = {},
) {
  const init: RequestInit = { method: "POST", headers: { ...headers } };
  if (typeof body === "string") init.body = body;
  else if (body !== undefined) init.body = new URLSearchParams(body);
  if (typeof body === "string" && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
    (init.headers as Record<string, string>)["content-type"] = "application/x-www-form-urlencoded";
  const response = await workerFetch(`${BASE}${path}`, init);
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (json?.access_token) remember(json);
  return { status: response.status, headers: response.headers, json, text };
}

/** RFC 6749 §5.2: printable ASCII without `"` and `\`. */
const ERROR_TEXT = /^[\x20\x21\x23-\x5B\x5D-\x7E]+$/;

/** Asserts an RFC 6749 §5.2 error response (JSON, not a problem body, never cached). */
export function expectOAuthError(res: Awaited<ReturnType<typeof post>>, status: number, error: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.json).toEqual({ error, error_description: expect.stringMatching(ERROR_TEXT) });
  if (status === 401) expect(res.headers.get("www-authenticate")).toBe('Basic realm="quiz"');
}
