import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { idSchema } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse, pageExample } from "../../lib/openapi";
import { nextCursorSchema, pageQuery } from "../../lib/pagination";
import { API_KEY_EXAMPLE, ApiKey, ApiKeyCreate, ApiKeyRotate, ApiKeyUsage, CreatedApiKey } from "./api-keys.schemas";

const tags = ["API keys"];
const Params = z.object({ id: idSchema("apiKey") });

export const listApiKeys = defineRoute({
  operationId: "listApiKeys",
  method: "get",
  path: "/",
  tags,
  ...scoped("admin"),
  summary: "List API keys (never the keys themselves)",
  description:
    "Returns key metadata oldest first, never the secret keys. Keyset pagination: pass `next_cursor` back as `cursor` until it is null.",
  request: { query: z.strictObject(pageQuery("apiKey")) },
  responses: {
    200: jsonResponse(
      z
        .object({ api_keys: z.array(ApiKey), next_cursor: nextCursorSchema })
        .openapi({ example: pageExample("api_keys", [API_KEY_EXAMPLE], API_KEY_EXAMPLE.id) }),
      "A page of keys.",
    ),
    ...errorResponses(400, ...COMMON_ERRORS),
  },
});

export const createApiKey = defineRoute({
  operationId: "createApiKey",
  method: "post",
  path: "/",
  tags,
  ...scoped("admin", idempotent()),
  summary: "Create an API key; the key is shown once",
  description:
    "Creates a key with a name, scopes and an optional expiry. The secret `key` appears only in this answer; store it then.",
  request: jsonBody(ApiKeyCreate),
  responses: {
    201: jsonResponse(CreatedApiKey, "The key, with the secret `key` shown this once."),
    ...errorResponses(...BODY_ERRORS, ...COMMON_ERRORS),
  },
});

export const getApiKey = defineRoute({
  operationId: "getApiKey",
  method: "get",
  path: "/{id}",
  tags,
  ...scoped("admin"),
  summary: "Get an API key's metadata",
  description:
    "Returns the key's name, prefix, scopes, expiry, revocation, successor (`rotated_to`) and last use, never the secret key.",
  request: { params: Params },
  responses: { 200: jsonResponse(ApiKey, "The key's metadata."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const rotateApiKey = defineRoute({
  operationId: "rotateApiKey",
  method: "post",
  path: "/{id}/rotate",
  tags,
  ...scoped("admin", idempotent()),
  summary: "Rotate an API key",
  description:
    "Creates a successor with the same name, scopes and expiry; the old key keeps working for `grace_seconds` (default 86400), then expires. The body is optional. A key already rotated or expired → 409.",
  request: {
    params: Params,
    body: { required: false, content: { "application/json": { schema: ApiKeyRotate } } },
  },
  responses: {
    201: jsonResponse(CreatedApiKey, "The new key, shown this once.", {
      ...API_KEY_EXAMPLE,
      id: "key_01m83vvae08c496ywf975r9dxv",
      prefix: "qz_live_g4OG",
      created_at: "2026-11-23T09:30:00.000Z",
      last_used_at: null,
      key: "qz_live_g4OGD5h9iQAwTPwUnyGblEGFkvN1XXnF05LEGo",
    }),
    ...errorResponses(...BODY_ERRORS, 404, 409, ...COMMON_ERRORS),
  },
});

export const revokeApiKey = defineRoute({
  operationId: "revokeApiKey",
  method: "delete",
  path: "/{id}",
  tags,
  ...scoped("admin"),
  summary: "Revoke an API key at once",
  description:
    "Refused at once by the isolate that revokes it and in its location; elsewhere within 10 s (memory cache) + 60 s (KV cache) + KV propagation (about 60 s).",
  request: { params: Params },
  responses: { 204: { description: "Revoked." }, ...errorResponses(404, 409, ...COMMON_ERRORS) },
});

export const getApiKeyUsage = defineRoute({
  operationId: "getApiKeyUsage",
  method: "get",
  path: "/{id}/usage",
  tags,
  ...scoped("admin"),
  summary: "Usage of an API key",
  description:
    "Total and per-day (UTC, newest first, 90 days) requests and error answers; current within 60 seconds (each isolate writes its counts at most 55 s after the first request it holds).",
  request: { params: Params },
  responses: { 200: jsonResponse(ApiKeyUsage, "The key's usage."), ...errorResponses(404, ...COMMON_ERRORS) },
});
