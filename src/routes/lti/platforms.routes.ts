import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  PLATFORM_EXAMPLE,
  Platform,
  PlatformCreate,
  PlatformListQuery,
  PlatformPage,
  PlatformParams,
  PlatformPatch,
} from "./platforms.schemas";

const tags = ["LTI"];

export const listPlatforms = defineRoute({
  operationId: "listLtiPlatforms",
  method: "get",
  path: "/platforms",
  tags,
  ...scoped("admin"),
  summary: "List LTI platforms",
  description:
    "The LMS registrations launches are accepted from, oldest first. Pass `next_cursor` back as `cursor` until it is null.",
  request: { query: PlatformListQuery },
  responses: { 200: jsonResponse(PlatformPage, "A page of platforms."), ...errorResponses(400, ...COMMON_ERRORS) },
});

export const createPlatform = defineRoute({
  operationId: "createLtiPlatform",
  method: "post",
  path: "/platforms",
  tags,
  ...scoped("admin", idempotent()),
  summary: "Register an LTI 1.3 platform",
  description:
    "Registers an LMS (its issuer and the client_id it gave this tool, its deployments, its token and JWKS URLs). auth_token_url and jwks_url must pass the safe-target rules (https, no private, loopback or link-local address; 400 naming the field). The same issuer and client_id twice → 409 lti_platform_exists.",
  request: jsonBody(PlatformCreate),
  responses: { 201: jsonResponse(Platform, "The platform."), ...errorResponses(...BODY_ERRORS, 409, ...COMMON_ERRORS) },
});

export const getPlatform = defineRoute({
  operationId: "getLtiPlatform",
  method: "get",
  path: "/platforms/{id}",
  tags,
  ...scoped("admin"),
  summary: "Get an LTI platform",
  description: "One registration.",
  request: { params: PlatformParams },
  responses: { 200: jsonResponse(Platform, "The platform."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const updatePlatform = defineRoute({
  operationId: "updateLtiPlatform",
  method: "patch",
  path: "/platforms/{id}",
  tags,
  ...scoped("admin"),
  summary: "Update an LTI platform",
  description:
    "Sets the fields sent. URLs as at registration; another platform's issuer and client_id → 409 lti_platform_exists. The next token request and JWKS fetch use the new values.",
  request: { params: PlatformParams, ...jsonBody(PlatformPatch) },
  responses: {
    200: jsonResponse(Platform, "The platform as updated.", {
      ...PLATFORM_EXAMPLE,
      deployment_ids: ["42:8865aa05b4b79b64a91a86042e43af5ea8ae79eb", "43:0a3c5e1f2b4d6f8091a2b3c4d5e6f7081928374a"],
      updated_at: "2026-11-23T09:30:00.000Z",
    }),
    ...errorResponses(...BODY_ERRORS, 404, 409, ...COMMON_ERRORS),
  },
});

export const deletePlatform = defineRoute({
  operationId: "deleteLtiPlatform",
  method: "delete",
  path: "/platforms/{id}",
  tags,
  ...scoped("admin"),
  summary: "Delete an LTI platform",
  description:
    "Deletes the registration and its links: its launches are refused (unknown_issuer) from now on. Users it created, its launches and its ledger rows stay; rows still pending fail with “The platform was deleted.”",
  request: { params: PlatformParams },
  responses: { 204: { description: "Deleted." }, ...errorResponses(404, ...COMMON_ERRORS) },
});
