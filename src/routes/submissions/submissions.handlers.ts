import * as saves from "../../grading/answer-save";
import * as grading from "../../grading/grade";
import * as reviews from "../../grading/review";
import { serializeSubmission } from "../../grading/submission";
import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import * as results from "./results.service";
import type * as routes from "./submissions.routes";
import * as service from "./submissions.service";

export const createSubmission: AppRouteHandler<typeof routes.createSubmission> = async (c) => {
  const submission = await service.createSubmission(c.var.db, c.var.wakeUps, c.req.valid("param").id, c.req.valid("json"));
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
  c.json(serializeSubmission(await service.getSubmissionRow(c.var.db, c.req.valid("param").id)), 200);

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
