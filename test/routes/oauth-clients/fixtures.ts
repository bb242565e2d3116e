import { expect } from "vitest";
import { SCOPES } from "../../../src/lib/scopes";
import { type Answer, call, callRaw, expectProblem, seedApiKey } from "../../support/call";

export const CLIENT_ID = /^cli_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
export const SECRET = /^qz_cs_[0-9A-Za-z]{43}$/;
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const MISSING = "/v1/oauth-clients/cli_01kamz3f7c9n0p8s6e5vwx2y4r";

export async function createClient(body: Record<string, unknown> = {}) {
  const res = await call("/v1/oauth-clients", { body: { name: "exporter", scopes: ["quizzes:read", "users:read"], ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

export const randomIp = () => `10.${[...crypto.getRandomValues(new Uint8Array(3))].join(".")}`;

/** POST /oauth/token with form parameters, from a fresh client IP (the endpoint is limited per IP). */
export const token = (params: Record<string, string>) =>
  call("/oauth/token", {
    auth: false,
    raw: new URLSearchParams(params),
    headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": randomIp() },
  });

export const clientCredentials = (client: { client_id: string; client_secret: string }, scope?: string) =>
  token({
    grant_type: "client_credentials",
    client_id: client.client_id,
    client_secret: client.client_secret,
    ...(scope ? { scope } : {}),
  });

export async function tokensFor(client: { client_id: string; client_secret: string }) {
  const res = await clientCredentials(client);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** An RFC 6749 invalid_client answer of /oauth/token. */
export function expectInvalidClient(res: Answer<unknown, { error: string }>) {
  expect(res.status, res.text).toBe(401);
  expect(res.problem.error).toBe("invalid_client");
}

export const verify = (accessToken: string) => call("/v1/auth/verify", { auth: accessToken });

/** A key with every scope but admin. */
const nonAdmin = () => seedApiKey(SCOPES.filter((s) => s !== "admin")).then((k) => k.key);

export async function expectNeedsAdmin(path: string, options: { method?: string; body?: unknown } = {}) {
  const res = await callRaw(path, { ...options, auth: await nonAdmin() });
  expectProblem(res, 403, "insufficient_scope");
  expect(res.headers.get("www-authenticate")).toContain('scope="admin"');
  expectProblem(await callRaw(path, { ...options, auth: false }), 401, "unauthorized");
}
