import { z } from "@hono/zod-openapi";
import { scopedAll } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { idSchema } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import { CreatedReportSession, ReportSession, ReportSessionCreate } from "./report-sessions.schemas";

const tags = ["Report sessions"];
const Params = z.object({ id: idSchema("reportSession") });

export const createReportSession = defineRoute({
  operationId: "createReportSession",
  method: "post",
  path: "/",
  tags,
  ...scopedAll(["analytics:read", "submissions:read"], idempotent()),
  summary: "Mint a report token for some quizzes; the token is shown once",
  description:
    "Needs analytics:read and submissions:read. The token reads only the quizzes named: each quiz, its questions, analytics and item analysis, its submissions' list and results, the results export, and the list of quizzes narrowed to them. Every write and every other operation → 403; another quiz's resources → 404.",
  request: jsonBody(ReportSessionCreate),
  responses: {
    201: jsonResponse(CreatedReportSession, "The session, with its token and report_url shown this once."),
    ...errorResponses(...BODY_ERRORS, ...COMMON_ERRORS),
  },
});

export const getReportSession = defineRoute({
  operationId: "getReportSession",
  method: "get",
  path: "/{id}",
  tags,
  ...scopedAll(["analytics:read", "submissions:read"]),
  summary: "Get a report session (never its token)",
  description: "Returns the quizzes the session reads, its expiry and revocation.",
  request: { params: Params },
  responses: { 200: jsonResponse(ReportSession, "The session."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const revokeReportSession = defineRoute({
  operationId: "revokeReportSession",
  method: "delete",
  path: "/{id}",
  tags,
  ...scopedAll(["analytics:read", "submissions:read"]),
  summary: "Revoke a report session",
  description: "The token is refused (401 invalid_token) from the next request on, everywhere. Revoking again answers 204.",
  request: { params: Params },
  responses: { 204: { description: "Revoked." }, ...errorResponses(404, ...COMMON_ERRORS) },
});
