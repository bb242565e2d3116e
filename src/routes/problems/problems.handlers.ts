import { notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/openapi";
import { PROBLEMS, type ProblemCode, problemPage } from "../../lib/problems";
import type * as routes from "./problems.routes";

const isCode = (code: string): code is ProblemCode => Object.hasOwn(PROBLEMS, code);

export const getProblem: AppRouteHandler<typeof routes.getProblem> = (c) => {
  const { code } = c.req.valid("param");
  if (!isCode(code)) throw notFound("Problem code");
  return c.body(problemPage(code), 200, { "content-type": "text/markdown; charset=utf-8" });
};
