import { createRouter } from "../../lib/openapi";
import * as handlers from "./users.handlers";
import * as routes from "./users.routes";

/** `/v1/users`; a user's submissions have their own router, mounted beside this one. */
export const usersRouter = createRouter()
  .openapi(routes.listUsers, handlers.listUsers)
  .openapi(routes.createUser, handlers.createUser)
  .openapi(routes.getUser, handlers.getUser)
  .openapi(routes.updateUser, handlers.updateUser)
  .openapi(routes.deleteUser, handlers.deleteUser);
