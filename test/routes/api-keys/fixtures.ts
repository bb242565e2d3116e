import { expect } from "vitest";
import { SCOPES } from "../../../src/lib/scopes";
import { call, callRaw, expectProblem, seedApiKey } from "../../support/call";

export const KEY_ID = /^key_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
export const KEY = /^qz_live_[0-9A-Za-z]{38}$/;
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const MISSING = "/v1/api-keys/key_01kamz3f7c9n0p8s6e5vwx2y4r";
export const DAY_MS = 86_400_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function createKey(body: Record<string, unknown> = {}) {
  const res = await call("/v1/api-keys", { body: { name: "grader", scopes: ["quizzes:read"], ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** GET /v1/auth/verify with the key: 200 when it authenticates. */
export const verify = (key: string, form: "bearer" | "x-api-key" = "bearer") =>
  call("/v1/auth/verify", form === "bearer" ? { auth: key } : { auth: false, headers: { "x-api-key": key } });

export async function expectRefused(key: string) {
  const res = await verify(key);
  expectProblem(res, 401, "invalid_token");
  expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
}

export async function rotate(id: string, body?: unknown) {
  const res = await call(`/v1/api-keys/${id}/rotate`, body === undefined ? { method: "POST" } : { body });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** A key with every scope but admin: it may do anything except manage keys and clients. */
export const nonAdmin = () => seedApiKey(SCOPES.filter((s) => s !== "admin")).then((k) => k.key);

export async function expectNeedsAdmin(path: string, options: { method?: string; body?: unknown } = {}) {
  const res = await callRaw(path, { ...options, auth: await nonAdmin() });
  expectProblem(res, 403, "insufficient_scope");
  expect(res.headers.get("www-authenticate")).toContain('scope="admin"');
  expectProblem(await callRaw(path, { ...options, auth: false }), 401, "unauthorized");
}
