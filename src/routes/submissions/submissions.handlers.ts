import type { Context } from "hono";
import { canSeeAnswerKeys } from "../../auth/authorize";
import type { AppEnv } from "../../env";
import * as saves from "../../grading/answer-save";
import * as grading from "../../grading/grade";
import * as reviews from "../../grading/review";
import { ApiError, validationFailed } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import { REALM } from "../../lib/scopes";
import * as results from "./results.service";
import type * as routes from "./submissions.routes";
import * as service from "./submissions.service";

/**
 * Who takes the quiz: the body's user_id, or a learner token's own user (and its session's LTI
 * launch, so the grade goes back to the LMS as for any launch, §15). A learner naming another
 * user or launch → 403.
 */
function taker(c: Context<AppEnv>, body: { user_id?: string; lti_launch_id?: string }) {
  const learner = c.var.credential?.learner;
  if (!learner) {
    if (body.user_id === undefined) throw validationFailed([{ path: "user_id", message: "Required." }]);
    return { user_id: body.user_id, lti_launch_id: body.lti_launch_id };
  }
  const launch = body.lti_launch_id ?? learner.ltiLaunchId ?? undefined;
  if ((body.user_id ?? learner.userId) !== learner.userId || launch !== (learner.ltiLaunchId ?? undefined))
    throw new ApiError("insufficient_scope", "A learner token starts submissions for its own user and launch only.", {
      headers: { "WWW-Authenticate": `Bearer realm="${REALM}", error="insufficient_scope"` },
    });
  return { user_id: learner.userId, lti_launch_id: launch };
}

export const createSubmission: AppRouteHandler<typeof routes.createSubmission> = async (c) => {
  const body = c.req.valid("json");
  const submission = await service.createSubmission(c.var.db, c.var.wakeUps, c.req.valid("param").id, {
    ...body,
    ...taker(c, body),
  });
  c.header("Location", `/v1/submissions/${submission.id}`);
  return c.json(submission, 201);
};

export const listQuizSubmissions: AppRouteHandler<typeof routes.listQuizSubmissions> = async (c) => {
  const { limit, cursor, status } = c.req.valid("query");
  const rows = await service.listSubmissions(c.var.db, { quizId: c.req.valid("param").id }, { after: cursor, status }, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (s) => s.id);
  return c.json({ submissions: items, next_cursor: nextCursor }, 200);
};

export const listUserSubmissions: AppRouteHandler<typeof routes.listUserSubmissions> = async (c) => {
  const { limit, cursor, status } = c.req.valid("query");
  const rows = await service.listSubmissions(c.var.db, { userId: c.req.valid("param").id }, { after: cursor, status }, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (s) => s.id);
  return c.json({ submissions: items, next_cursor: nextCursor }, 200);
};

export const getSubmission: AppRouteHandler<typeof routes.getSubmission> = async (c) =>
  c.json(await service.getSubmissionWithQuestions(c.var.db, c.req.valid("param").id, canSeeAnswerKeys(c)), 200);

export const replaceAnswers: AppRouteHandler<typeof routes.replaceAnswers> = async (c) =>
  c.json(await service.replaceAnswers(c.var.db, c.req.valid("param").id, c.req.valid("json").answers), 200);

export const saveAnswer: AppRouteHandler<typeof routes.saveAnswer> = async (c) => {
  const { id, question_id } = c.req.valid("param");
  return c.json(await saves.saveAnswer(c.var.db, id, question_id, c.req.valid("json")), 200);
};

export const gradeSubmission: AppRouteHandler<typeof routes.gradeSubmission> = async (c) =>
  c.json(await grading.gradeExactlyOnce(c.var.db, c.var.wakeUps, c.req.valid("param").id), 200);

export const getResults: AppRouteHandler<typeof routes.getResults> = async (c) =>
  c.json(await results.getResults(c.var.db, c.req.valid("param").id, c.var.credential?.scopes ?? []), 200);

export const reviewAnswer: AppRouteHandler<typeof routes.reviewAnswer> = async (c) => {
  const { id, question_id } = c.req.valid("param");
  return c.json(await reviews.reviewAnswer(c.var.db, c.var.wakeUps, id, question_id, c.req.valid("json")), 200);
};
