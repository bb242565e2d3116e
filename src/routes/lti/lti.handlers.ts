import { serializeJob } from "../../jobs/jobs";
import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import { publicKeySet, rotateKeys as rotate } from "../../lti/keys";
import { acceptLaunch } from "../../lti/launches";
import { listPassbacks as listLedger, retryPassback as retry } from "../../lti/ledger-admin";
import { startResync } from "../../lti/resync";
import type * as ledger from "./ledger.routes";
import type * as platforms from "./platforms.routes";
import * as service from "./platforms.service";

export const listPlatforms: AppRouteHandler<typeof platforms.listPlatforms> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await service.listPlatforms(c.var.db, cursor, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (platform) => platform.id);
  return c.json({ platforms: items, next_cursor: nextCursor }, 200);
};

export const createPlatform: AppRouteHandler<typeof platforms.createPlatform> = async (c) => {
  const platform = await service.createPlatform(c.env, c.var.db, c.req.valid("json"));
  c.header("Location", `/v1/lti/platforms/${platform.id}`);
  return c.json(platform, 201);
};

export const getPlatform: AppRouteHandler<typeof platforms.getPlatform> = async (c) =>
  c.json(await service.getPlatform(c.var.db, c.req.valid("param").id), 200);

export const updatePlatform: AppRouteHandler<typeof platforms.updatePlatform> = async (c) =>
  c.json(await service.updatePlatform(c.env, c.var.db, c.req.valid("param").id, c.req.valid("json")), 200);

export const deletePlatform: AppRouteHandler<typeof platforms.deletePlatform> = async (c) => {
  await service.deletePlatform(c.var.db, c.req.valid("param").id);
  return c.body(null, 204);
};

export const putLink: AppRouteHandler<typeof platforms.putLink> = async (c) => {
  const resourceLinkId = c.req.valid("param").resource_link_id;
  const { link, created } = await service.putLink(c.var.db, resourceLinkId, c.req.valid("json"));
  if (!created) return c.json(link, 200);
  c.header("Location", `/v1/lti/links/${encodeURIComponent(resourceLinkId)}`);
  return c.json(link, 201);
};

export const createLaunch: AppRouteHandler<typeof ledger.createLaunch> = async (c) =>
  c.json(await acceptLaunch(c.env, c.var.db, c.var.wakeUps, c.req.valid("json").id_token), 200);

export const rotateKeys: AppRouteHandler<typeof ledger.rotateKeys> = async (c) => c.json(await rotate(c.env, c.var.db), 200);

export const listPassbacks: AppRouteHandler<typeof ledger.listPassbacks> = async (c) => {
  const { limit, cursor, status, quiz_id, user_id } = c.req.valid("query");
  const rows = await listLedger(c.var.db, { after: cursor, status, quizId: quiz_id, userId: user_id }, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (row) => row.id);
  return c.json({ passbacks: items, next_cursor: nextCursor }, 200);
};

export const retryPassback: AppRouteHandler<typeof ledger.retryPassback> = async (c) =>
  c.json(await retry(c.var.db, c.var.wakeUps, c.req.valid("param").id), 202);

export const resyncQuiz: AppRouteHandler<typeof ledger.resyncQuiz> = async (c) => {
  const job = serializeJob(await startResync(c.var.db, c.var.wakeUps, c.req.valid("param").id));
  c.header("Location", `/v1/jobs/${job.id}`);
  return c.json(job, 202);
};

export const jwks: AppRouteHandler<typeof ledger.jwks> = async (c) => {
  // Cached a minute at most: a rotation's new key signs at once, and a platform holding an older
  // set must see it soon (most fetch the set again for an unknown kid anyway).
  c.header("Cache-Control", "public, max-age=60");
  return c.json(await publicKeySet(c.env, c.var.db), 200);
};
