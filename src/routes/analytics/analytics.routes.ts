import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idSchema } from "../../lib/ids";
import { COMMON_ERRORS, defineRoute, errorResponses, jsonResponse } from "../../lib/openapi";
import { ItemAnalysis, ItemAnalysisQuery, QuizAnalytics, UserAnalytics } from "./analytics.schemas";

const tags = ["Analytics"];

export const getQuizAnalytics = defineRoute({
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

export const getUserAnalytics = defineRoute({
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

export const getItemAnalysis = defineRoute({
  operationId: "getItemAnalysis",
  method: "get",
  path: "/quiz/{id}/items",
  tags,
  ...scoped("analytics:read"),
  summary: "Item analysis of a quiz",
  description:
    "Difficulty, discrimination (corrected item–total correlation), Cronbach's alpha and option counts, over every graded submission or each user's first. Kept current from sufficient statistics at grade and regrade time: one query, whatever the number of submissions (docs/item-analysis.md).",
  request: { params: z.object({ id: idSchema("quiz") }), query: ItemAnalysisQuery },
  responses: { 200: jsonResponse(ItemAnalysis, "The quiz's item analysis."), ...errorResponses(400, 404, ...COMMON_ERRORS) },
});
