import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { idSchema } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse, pageExample } from "../../lib/openapi";
import { nextCursorSchema, pageQuery } from "../../lib/pagination";
import { OAUTH_CLIENT_EXAMPLE, OAuthClient, OAuthClientCreate, OAuthClientWithSecret } from "./oauth-clients.schemas";

const tags = ["OAuth clients"];
const Params = z.object({ id: idSchema("oauthClient") });

export const listClients = defineRoute({
  operationId: "listClients",
  method: "get",
  path: "/",
  tags,
  ...scoped("admin"),
  summary: "List OAuth clients (never their secrets)",
  description:
    "Returns OAuth clients oldest first, without their secrets. Keyset pagination: pass `next_cursor` back as `cursor` until it is null.",
  request: { query: z.strictObject(pageQuery("oauthClient")) },
  responses: {
    200: jsonResponse(
      z
        .object({ oauth_clients: z.array(OAuthClient), next_cursor: nextCursorSchema })
        .openapi({ example: pageExample("oauth_clients", [OAUTH_CLIENT_EXAMPLE], OAUTH_CLIENT_EXAMPLE.id) }),
      "A page of clients.",
    ),
    ...errorResponses(400, ...COMMON_ERRORS),
  },
});

export const createClient = defineRoute({
  operationId: "createClient",
  method: "post",
  path: "/",
  tags,
  ...scoped("admin", idempotent()),
  summary: "Register an OAuth client; the secret is shown once",
  description:
    "Registers a client with a name and the scopes its tokens may carry. The client_secret appears only in this answer; store it then.",
  request: jsonBody(OAuthClientCreate),
  responses: {
    201: jsonResponse(OAuthClientWithSecret, "The client, with client_secret shown this once."),
    ...errorResponses(...BODY_ERRORS, ...COMMON_ERRORS),
  },
});

export const getClient = defineRoute({
  operationId: "getClient",
  method: "get",
  path: "/{id}",
  tags,
  ...scoped("admin"),
  summary: "Get an OAuth client",
  description: "Returns the client's name, scopes and dates, never its secret.",
  request: { params: Params },
  responses: { 200: jsonResponse(OAuthClient, "The client."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const rotateSecret = defineRoute({
  operationId: "rotateSecret",
  method: "post",
  path: "/{id}/rotate-secret",
  tags,
  ...scoped("admin", idempotent()),
  summary: "Replace a client's secret",
  description:
    "The old secret stops working at once, and every token issued to the client (access and refresh) is revoked with it.",
  request: { params: Params },
  responses: {
    200: jsonResponse(OAuthClientWithSecret, "The client, with the new secret shown this once.", {
      ...OAUTH_CLIENT_EXAMPLE,
      updated_at: "2026-11-23T09:30:00.000Z",
      secret_rotated_at: "2026-11-23T09:30:00.000Z",
      client_secret: "qz_cs_bOx5OWFK8J4h7dgvengGyh86pDLf4Nz77t4vXIPo4Td",
    }),
    ...errorResponses(404, 409, ...COMMON_ERRORS),
  },
});

export const deleteClient = defineRoute({
  operationId: "deleteClient",
  method: "delete",
  path: "/{id}",
  tags,
  ...scoped("admin"),
  summary: "Delete an OAuth client and revoke its tokens",
  description: "Revokes every access and refresh token issued to the client, then deletes it; its secret stops working at once.",
  request: { params: Params },
  responses: { 204: { description: "Deleted." }, ...errorResponses(404, 409, ...COMMON_ERRORS) },
});
