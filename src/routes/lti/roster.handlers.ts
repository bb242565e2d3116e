import { serializeJob } from "../../jobs/jobs";
import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import { readRoster, startRosterSync } from "../../lti/roster";
import type * as routes from "./roster.routes";

export const syncRoster: AppRouteHandler<typeof routes.syncRoster> = async (c) => {
  const job = serializeJob(await startRosterSync(c.var.db, c.var.wakeUps, c.req.valid("param").launch_id));
  c.header("Location", `/v1/jobs/${job.id}`);
  return c.json(job, 202);
};

export const getRoster: AppRouteHandler<typeof routes.getRoster> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const roster = await readRoster(c.var.db, c.req.valid("param").launch_id, cursor, limit);
  const { items, nextCursor } = toPage(c, roster.members, limit, (member) => member.user_id);
  return c.json({ members: items, synced_at: roster.syncedAt, next_cursor: nextCursor }, 200);
};
