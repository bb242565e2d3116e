import type { AppRouteHandler } from "../../lib/openapi";
import type * as routes from "./regrade.routes";
import * as service from "./regrade.service";

export const regradeQuiz: AppRouteHandler<typeof routes.regradeQuiz> = async (c) => {
  const { question_ids, policy, dry_run } = c.req.valid("json");
  const job = await service.startRegrade(c.var.db, c.var.wakeUps, c.req.valid("param").id, {
    question_ids: question_ids ?? null,
    policy,
    dry_run,
  });
  c.header("Location", `/v1/jobs/${job.id}`);
  return c.json(job, 202);
};
