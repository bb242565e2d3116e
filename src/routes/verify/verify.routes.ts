import { authenticated } from "../../auth/authorize";
import { COMMON_ERRORS, defineRoute, errorResponses, jsonResponse } from "../../lib/openapi";
import { Verification } from "./verify.schemas";

export const verify = defineRoute({
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
