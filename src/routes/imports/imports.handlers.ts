import { startImport } from "../../imports/start";
import { serializeJob } from "../../jobs/jobs";
import type { AppRouteHandler } from "../../lib/openapi";
import type * as routes from "./imports.routes";

export const createImport: AppRouteHandler<typeof routes.createImport> = async (c) => {
  const { format, quiz_id, title } = c.req.valid("query");
  // The /v1 body guard has checked the media type and counts the bytes up to 10 MiB (413 past it).
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const row = await startImport(c.env, c.var.db, c.var.wakeUps, {
    bytes,
    mediaType,
    format,
    quizId: quiz_id,
    title,
    origin: new URL(c.req.url).origin,
  });
  const job = serializeJob(row);
  if (job.type !== "import") throw new Error("an import started another kind of job");
  c.header("Location", `/v1/jobs/${job.id}`);
  return c.json(job, 202);
};
