import type { Context } from "hono";
import { noteDeprecation } from "../../lib/deprecations";
import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import type * as routes from "./quizzes.routes";
import * as service from "./quizzes.service";

export const listQuizzes: AppRouteHandler<typeof routes.listQuizzes> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  // A report token lists only the quizzes it names (§17).
  const rows = await service.listQuizzes(c.var.db, cursor, limit, c.var.credential?.report?.quizIds);
  const { items, nextCursor } = toPage(c, rows, limit, (q) => q.id);
  return c.json({ quizzes: items, next_cursor: nextCursor }, 200);
};

/** A request that gave show_correct_answers as a boolean is told it is deprecated (the body as sent, not as parsed). */
async function noteBooleanRevealPolicy(c: Context): Promise<void> {
  const body = (await c.req.json()) as { settings?: { show_correct_answers?: unknown } } | undefined;
  if (typeof body?.settings?.show_correct_answers === "boolean") noteDeprecation(c, "boolean_show_correct_answers");
}

export const createQuiz: AppRouteHandler<typeof routes.createQuiz> = async (c) => {
  await noteBooleanRevealPolicy(c);
  const quiz = await service.createQuiz(c.var.db, c.var.wakeUps, c.req.valid("json"), new URL(c.req.url).origin);
  c.header("Location", `/v1/quizzes/${quiz.id}`);
  return c.json(quiz, 201);
};

export const getQuiz: AppRouteHandler<typeof routes.getQuiz> = async (c) =>
  c.json(await service.getQuiz(c.var.db, c.req.valid("param").id), 200);

export const updateQuiz: AppRouteHandler<typeof routes.updateQuiz> = async (c) => {
  await noteBooleanRevealPolicy(c);
  return c.json(await service.updateQuiz(c.var.db, c.var.wakeUps, c.req.valid("param").id, c.req.valid("json")), 200);
};

export const deleteQuiz: AppRouteHandler<typeof routes.deleteQuiz> = async (c) => {
  await service.deleteQuiz(c.var.db, c.var.wakeUps, c.req.valid("param").id);
  return c.body(null, 204);
};
