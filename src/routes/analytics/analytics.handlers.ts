import type { AppRouteHandler } from "../../lib/openapi";
import type * as routes from "./analytics.routes";
import * as service from "./analytics.service";
import * as items from "./item-analysis.service";

export const getQuizAnalytics: AppRouteHandler<typeof routes.getQuizAnalytics> = async (c) =>
  c.json(await service.quizAnalytics(c.var.db, c.req.valid("param").id), 200);

export const getItemAnalysis: AppRouteHandler<typeof routes.getItemAnalysis> = async (c) =>
  c.json(await items.itemAnalysis(c.var.db, c.req.valid("param").id, c.req.valid("query").attempts), 200);

export const getUserAnalytics: AppRouteHandler<typeof routes.getUserAnalytics> = async (c) =>
  c.json(await service.userAnalytics(c.var.db, c.req.valid("param").id), 200);
