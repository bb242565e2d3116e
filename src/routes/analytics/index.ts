import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idSchema } from "../../lib/ids";
import { COMMON_ERRORS, createRouter, defineRoute, errorResponses, jsonResponse } from "../../lib/openapi";
import { QuizAnalytics, UserAnalytics } from "./analytics.schemas";
import * as service from "./analytics.service";

const tags = ["Analytics"];

const getQuizAnalytics = defineRoute({
  operationId: "getQuizAnalytics",
  method: "get",
  path: "/quiz/{id}",
  tags,
  ...scoped("analytics:read"),
  summary: "How a quiz performs",
  description: "Counts graded submissions only. Kept current at grade time: one query, whatever the number of submissions.",
  request: { params: z.object({ id: idSchema("quiz") }) },
  responses: { 200: jsonResponse(QuizAnalytics, "The quiz's analytics."), ...errorResponses(404, ...COMMON_ERRORS) },
});

const getUserAnalytics = defineRoute({
  operationId: "getUserAnalytics",
  method: "get",
  path: "/user/{id}",
  tags,
  ...scoped("analytics:read"),
  summary: "How a user performs",
  description:
    "Counts the user's graded submissions only, across all quizzes. Kept current at grade time, so it answers in one query.",
  request: { params: z.object({ id: idSchema("user") }) },
  responses: { 200: jsonResponse(UserAnalytics, "The user's analytics."), ...errorResponses(404, ...COMMON_ERRORS) },
});

export const analyticsRouter = createRouter()
  .openapi(getQuizAnalytics, async (c) => c.json(await service.quizAnalytics(c.var.db, c.req.valid("param").id), 200))
  .openapi(getUserAnalytics, async (c) => c.json(await service.userAnalytics(c.var.db, c.req.valid("param").id), 200));
