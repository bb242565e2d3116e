import { canSeeAnswerKeys } from "../../auth/authorize";
import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import type * as routes from "./questions.routes";
import * as service from "./questions.service";

export const listQuestions: AppRouteHandler<typeof routes.listQuestions> = async (c) => {
  const { id } = c.req.valid("param");
  const { limit, cursor, tag } = c.req.valid("query");
  const rows = await service.listQuestions(c.var.db, id, cursor, limit, tag);
  const { items, nextCursor } = toPage(c, rows, limit, (q) => q.position);
  const reveal = canSeeAnswerKeys(c);
  return c.json({ questions: items.map((q) => service.serializeQuestion(q, reveal)), next_cursor: nextCursor }, 200);
};

export const createQuestion: AppRouteHandler<typeof routes.createQuestion> = async (c) => {
  const { id } = c.req.valid("param");
  const row = await service.createQuestion(c.var.db, c.var.wakeUps, id, c.req.valid("json"), new URL(c.req.url).origin);
  c.header("Location", `/v1/quizzes/${id}/questions/${row.id}`);
  return c.json(service.serializeQuestion(row, canSeeAnswerKeys(c)), 201);
};

export const getQuestion: AppRouteHandler<typeof routes.getQuestion> = async (c) => {
  const { id, question_id } = c.req.valid("param");
  const row = await service.getQuestion(c.var.db, id, question_id);
  return c.json(service.serializeQuestion(row, canSeeAnswerKeys(c)), 200);
};

export const updateQuestion: AppRouteHandler<typeof routes.updateQuestion> = async (c) => {
  const { id, question_id } = c.req.valid("param");
  const row = await service.updateQuestion(
    c.var.db,
    c.var.wakeUps,
    id,
    question_id,
    c.req.valid("json"),
    new URL(c.req.url).origin,
  );
  return c.json(service.serializeQuestion(row, canSeeAnswerKeys(c)), 200);
};

export const deleteQuestion: AppRouteHandler<typeof routes.deleteQuestion> = async (c) => {
  const { id, question_id } = c.req.valid("param");
  await service.deleteQuestion(c.var.db, c.var.wakeUps, id, question_id);
  return c.body(null, 204);
};
