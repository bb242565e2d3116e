import { serializeJob } from "../../jobs/jobs";
import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import { listPassbacks as listLedger, retryPassback as retry } from "../../lti/ledger-admin";
import { startResync } from "../../lti/resync";
import type * as routes from "./passbacks.routes";

export const listPassbacks: AppRouteHandler<typeof routes.listPassbacks> = async (c) => {
  const { limit, cursor, status, quiz_id, user_id } = c.req.valid("query");
  const rows = await listLedger(c.var.db, { after: cursor, status, quizId: quiz_id, userId: user_id }, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (row) => row.id);
  return c.json({ passbacks: items, next_cursor: nextCursor }, 200);
};

export const retryPassback: AppRouteHandler<typeof routes.retryPassback> = async (c) =>
  c.json(await retry(c.var.db, c.var.wakeUps, c.req.valid("param").id), 202);

export const resyncQuiz: AppRouteHandler<typeof routes.resyncQuiz> = async (c) => {
  const job = serializeJob(await startResync(c.var.db, c.var.wakeUps, c.req.valid("param").id));
  c.header("Location", `/v1/jobs/${job.id}`);
  return c.json(job, 202);
};
