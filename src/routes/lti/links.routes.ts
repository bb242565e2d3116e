import { scoped } from "../../auth/authorize";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { LINK_EXAMPLE, Link, LinkParams, LinkPut } from "./links.schemas";

const tags = ["LTI"];

export const putLink = defineRoute({
  operationId: "putLtiLink",
  method: "put",
  path: "/links/{resource_link_id}",
  tags,
  ...scoped("admin"),
  summary: "Link a resource link to a quiz",
  description:
    "Launches of this resource link from this platform open this quiz, unless they carry a custom quiz_id of an existing quiz. 201 when the link is new, 200 when it replaced one. An unknown platform or quiz → 400.",
  request: { params: LinkParams, ...jsonBody(LinkPut) },
  responses: {
    200: jsonResponse(Link, "The link, replaced.", { ...LINK_EXAMPLE, updated_at: "2026-11-23T09:30:00.000Z" }),
    201: jsonResponse(Link, "The link, created."),
    ...errorResponses(...BODY_ERRORS, ...COMMON_ERRORS),
  },
});
