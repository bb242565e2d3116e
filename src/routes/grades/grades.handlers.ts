import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import type * as routes from "./grades.routes";
import * as service from "./grades.service";

export const listQuizGrades: AppRouteHandler<typeof routes.listQuizGrades> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await service.listGrades(c.var.db, { quizId: c.req.valid("param").id }, cursor, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (grade) => grade.user_id);
  return c.json({ grades: items, next_cursor: nextCursor }, 200);
};

export const listUserGrades: AppRouteHandler<typeof routes.listUserGrades> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await service.listGrades(c.var.db, { userId: c.req.valid("param").id }, cursor, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (grade) => grade.quiz_id);
  return c.json({ grades: items, next_cursor: nextCursor }, 200);
};
