import type { AppRouteHandler } from "../../lib/openapi";
import { acceptLaunch } from "../../lti/launches";
import type * as routes from "./launches.routes";

export const createLaunch: AppRouteHandler<typeof routes.createLaunch> = async (c) =>
  c.json(await acceptLaunch(c.env, c.var.db, c.var.wakeUps, c.req.valid("json").id_token), 200);
