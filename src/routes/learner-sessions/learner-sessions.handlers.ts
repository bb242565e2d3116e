import type { Context } from "hono";
import { commit } from "../../db/after-commit";
import { judgeTarget, refusalText } from "../../domain/safe-target";
import { readOrigin } from "../../domain/session-origins";
import type { AppEnv } from "../../env";
import { config } from "../../lib/config";
import { ApiError, type FieldError, notFound, validationFailed } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/openapi";
import { REALM } from "../../lib/scopes";
import * as sessions from "../../sessions/learner-sessions";
import { sessionLink } from "../../sessions/lifetime";
import type * as routes from "./learner-sessions.routes";
import * as service from "./learner-sessions.service";

/** The origin the service's pages are served from: ISSUER's, else the request's. */
const serviceOrigin = (c: Context<AppEnv>) => config(c.env).issuer ?? new URL(c.req.url).origin;

export const createLearnerSession: AppRouteHandler<typeof routes.createLearnerSession> = async (c) => {
  const body = c.req.valid("json");
  const policy = config(c.env).webhooks.urlPolicy;
  const errors: FieldError[] = [];
  const origins: string[] = [];
  body.origins.forEach((given, i) => {
    const read = readOrigin(given, policy);
    if (read.ok) origins.includes(read.origin) || origins.push(read.origin);
    else errors.push({ path: `origins.${i}`, message: read.reason });
  });
  let returnUrl: string | null = null;
  if (body.return_url !== null) {
    const verdict = judgeTarget(body.return_url, policy);
    if (verdict.ok) returnUrl = verdict.url.href;
    else errors.push({ path: "return_url", message: refusalText(verdict.refusal, "return_url") });
  }
  if (errors.length > 0) throw validationFailed(errors);
  const input = { userId: body.user_id, quizId: body.quiz_id, expiresIn: body.expires_in, origins, returnUrl };
  const made = await sessions.createLearnerSession(c.var.db, input);
  await sessions.confirmLearnerSession(c.var.db, await commit(c.var.db, c.var.wakeUps, made.statements), input);
  c.header("Location", `/v1/learner-sessions/${made.session.id}`);
  const { revoked_at: _, ...shown } = made.session;
  return c.json({ ...shown, token: made.token, player_url: sessionLink(serviceOrigin(c), "play", made.token) }, 201);
};

export const getCurrentLearnerSession: AppRouteHandler<typeof routes.getCurrentLearnerSession> = async (c) => {
  const learner = c.var.credential?.learner;
  if (!learner)
    throw new ApiError("insufficient_scope", "Only a learner token (qz_lt_…) has a current learner session.", {
      headers: { "WWW-Authenticate": `Bearer realm="${REALM}", error="insufficient_scope"` },
    });
  return c.json(await service.currentSession(c.var.db, learner), 200);
};

export const getLearnerSession: AppRouteHandler<typeof routes.getLearnerSession> = async (c) => {
  const session = await sessions.getLearnerSession(c.var.db, c.req.valid("param").id);
  if (!session) throw notFound("Learner session");
  return c.json(session, 200);
};

export const revokeLearnerSession: AppRouteHandler<typeof routes.revokeLearnerSession> = async (c) => {
  const session = await sessions.getLearnerSession(c.var.db, c.req.valid("param").id);
  if (!session) throw notFound("Learner session");
  if (session.revoked_at === null) await commit(c.var.db, c.var.wakeUps, sessions.revokeLearnerSession(c.var.db, session));
  return c.body(null, 204);
};
