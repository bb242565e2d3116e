import { config } from "../../lib/config";
import { notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/openapi";
import { sessionLink } from "../../sessions/lifetime";
import * as sessions from "../../sessions/report-sessions";
import type * as routes from "./report-sessions.routes";

export const createReportSession: AppRouteHandler<typeof routes.createReportSession> = async (c) => {
  const body = c.req.valid("json");
  const made = await sessions.createReportSession(c.var.db, { quizIds: body.quiz_ids, expiresIn: body.expires_in });
  await c.var.db.$client.batch(made.statements);
  c.header("Location", `/v1/report-sessions/${made.session.id}`);
  const { revoked_at: _, ...shown } = made.session;
  const origin = config(c.env).issuer ?? new URL(c.req.url).origin;
  return c.json({ ...shown, token: made.token, report_url: sessionLink(origin, "reports", made.token) }, 201);
};

export const getReportSession: AppRouteHandler<typeof routes.getReportSession> = async (c) => {
  const session = await sessions.getReportSession(c.var.db, c.req.valid("param").id);
  if (!session) throw notFound("Report session");
  return c.json(session, 200);
};

export const revokeReportSession: AppRouteHandler<typeof routes.revokeReportSession> = async (c) => {
  const { id } = c.req.valid("param");
  const session = await sessions.getReportSession(c.var.db, id);
  if (!session) throw notFound("Report session");
  await c.var.db.$client.batch(sessions.revokeReportSession(c.var.db, id));
  return c.body(null, 204);
};
