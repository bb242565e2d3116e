import { logUnexpectedError } from "../../lib/log";
import type { AppRouteHandler } from "../../lib/openapi";
import type * as routes from "./results-export.routes";
import * as service from "./results-export.service";
import { exportStream, MEDIA_TYPES } from "./results-export.stream";

export const exportResults: AppRouteHandler<typeof routes.exportResults> = async (c) => {
  const { id } = c.req.valid("param");
  const options = c.req.valid("query");
  // Read before the first byte, so that an unknown quiz is still a 404.
  const quiz = await service.findExportQuiz(c.var.db, id);
  const body = exportStream(c.var.db, quiz, options, (error) => logUnexpectedError(c, error));
  return c.body(body, 200, {
    "content-type": MEDIA_TYPES[options.format],
    "content-disposition": `attachment; filename="${id}-${options.shape}.${options.format}"`,
  });
};
