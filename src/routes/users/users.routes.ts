import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { idSchema } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse, pageExample } from "../../lib/openapi";
import { nextCursorSchema } from "../../lib/pagination";
import { USER_EXAMPLE, User, UserCreate, UserListQuery, UserPatch } from "./users.schemas";

const tags = ["Users"];
const Params = z.object({ id: idSchema("user") });

export const listUsers = defineRoute({
  operationId: "listUsers",
  method: "get",
  path: "/",
  tags,
  ...scoped("users:read"),
  summary: "List users, oldest first, optionally by role or e-mail",
  description:
    "Returns users oldest first; `role` and `email` (exact, case-insensitive) narrow the list. Keyset pagination: pass `next_cursor` back as `cursor` until it is null.",
  request: { query: UserListQuery },
  responses: {
    200: jsonResponse(
      z
        .object({ users: z.array(User), next_cursor: nextCursorSchema })
        .openapi({ example: pageExample("users", [USER_EXAMPLE], USER_EXAMPLE.id) }),
      "A page of users.",
    ),
    ...errorResponses(400, ...COMMON_ERRORS),
  },
});

export const createUser = defineRoute({
  operationId: "createUser",
  method: "post",
  path: "/",
  tags,
  ...scoped("users:write", idempotent()),
  summary: "Register a user",
  description:
    "Creates a user with a name, an e-mail (or none: omitted or null) and a role. An e-mail already in use by another user → 409 email_taken; any number of users may have none.",
  request: jsonBody(UserCreate),
  responses: {
    201: jsonResponse(User, "The user; Location names it."),
    ...errorResponses(...BODY_ERRORS, 409, ...COMMON_ERRORS),
  },
});

export const getUser = defineRoute({
  operationId: "getUser",
  method: "get",
  path: "/{id}",
  tags,
  ...scoped("users:read"),
  summary: "Get a user",
  description: "Returns one user by id.",
  request: { params: Params },
  responses: { 200: jsonResponse(User, "The user."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const updateUser = defineRoute({
  operationId: "updateUser",
  method: "patch",
  path: "/{id}",
  tags,
  ...scoped("users:write"),
  summary: "Change a user's name, e-mail or role",
  description:
    "Changes only the fields sent; the others keep their values. `email: null` removes the user's address. An e-mail already in use by another user → 409 email_taken.",
  request: { params: Params, ...jsonBody(UserPatch) },
  responses: {
    200: jsonResponse(User, "The changed user.", {
      ...USER_EXAMPLE,
      name: "Ada King",
      role: "instructor",
      updated_at: "2026-11-23T09:30:00.000Z",
    }),
    ...errorResponses(...BODY_ERRORS, 404, 409, ...COMMON_ERRORS),
  },
});

export const deleteUser = defineRoute({
  operationId: "deleteUser",
  method: "delete",
  path: "/{id}",
  tags,
  ...scoped("users:write"),
  summary: "Delete a user",
  description: "Erases the user's name and e-mail; their graded submissions stay, anonymised, and analytics do not change.",
  request: { params: Params },
  responses: { 204: { description: "Deleted." }, ...errorResponses(404, 409, ...COMMON_ERRORS) },
});
