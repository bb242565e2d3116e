import { z } from "@hono/zod-openapi";
import { authenticated } from "../../auth/authorize";
import { ApiError } from "../../lib/errors";
import { COMMON_ERRORS, createRouter, defineRoute, errorResponses, jsonResponse } from "../../lib/openapi";

const Verification = z
  .object({
    status: z.literal("success"),
    message: z.literal("Authentication successful"),
    credential: z.object({
      type: z.enum(["api_key", "access_token"]),
      id: z.string().openapi({ description: "The key's id, or the OAuth client's id for an access token." }),
      scopes: z.array(z.string()),
      expires_at: z.string().datetime().nullable(),
    }),
  })
  .openapi("Verification", {
    example: {
      status: "success",
      message: "Authentication successful",
      credential: {
        type: "api_key",
        id: "key_01kamz3f7c9n0p8s6e5vwx2y4r",
        scopes: ["quizzes:read", "submissions:write"],
        expires_at: "2030-06-30T00:00:00.000Z",
      },
    },
  });

const verify = defineRoute({
  operationId: "verify",
  method: "get",
  path: "/verify",
  tags: ["Authentication"],
  ...authenticated,
  summary: "Check a credential and see what it may do",
  description:
    "Returns the type, id, scopes and expiry of the API key or OAuth access token sent with the request. Needs no particular scope; a missing, invalid, expired or revoked credential → 401.",
  responses: {
    200: jsonResponse(Verification, "The credential is valid."),
    ...errorResponses(...COMMON_ERRORS),
  },
});

export const verifyRouter = createRouter().openapi(verify, (c) => {
  const credential = c.get("credential");
  if (!credential) throw new ApiError("unauthorized", "No credential.");
  const { type, id, scopes, expires_at } = credential;
  return c.json(
    { status: "success" as const, message: "Authentication successful" as const, credential: { type, id, scopes, expires_at } },
    200,
  );
});
