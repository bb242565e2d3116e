import type { AppRouteHandler } from "../../lib/openapi";
import type * as routes from "./links.routes";
import * as service from "./links.service";

export const putLink: AppRouteHandler<typeof routes.putLink> = async (c) => {
  const resourceLinkId = c.req.valid("param").resource_link_id;
  const { link, created } = await service.putLink(c.var.db, resourceLinkId, c.req.valid("json"));
  if (!created) return c.json(link, 200);
  c.header("Location", `/v1/lti/links/${encodeURIComponent(resourceLinkId)}`);
  return c.json(link, 201);
};
