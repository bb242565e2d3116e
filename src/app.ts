import { swaggerUI } from "@hono/swagger-ui";
import { drizzle } from "drizzle-orm/d1";
import { requestId } from "hono/request-id";
import * as schema from "./db/schema";
import { createRouter } from "./lib/openapi";
import { notFoundOrMethodNotAllowed, onError } from "./middleware/errors";
import { jsonBodyGuard } from "./middleware/json-body";
import { quizzesRouter } from "./routes/quizzes";
import { usersRouter } from "./routes/users";

/** Every resource of the API, served under /v1. */
const v1 = createRouter().route("/quizzes", quizzesRouter).route("/users", usersRouter);

const app = createRouter();

// Order matters: the request id first, so that every response and log line carries it.
app.use(requestId());
app.use(async (c, next) => {
  c.set("db", drizzle(c.env.DB, { schema }));
  await next();
});
app.use("/v1/*", jsonBodyGuard());

const routes = app
  .route("/v1", v1)
  .get("/health", (c) => c.json({ status: "ok" }, 200));

app.doc31("/openapi.json", (c) => ({
  openapi: "3.1.0",
  info: {
    title: "Quiz API",
    version: "1.0.0",
    description:
      "Author quizzes, register users, take and grade submissions, read analytics. Errors are RFC 9457 problem details.",
  },
  servers: [{ url: new URL(c.req.url).origin }],
}));
app.get("/docs", swaggerUI({ url: "/openapi.json", title: "Quiz API" }));

app.notFound(notFoundOrMethodNotAllowed(() => app.routes));
app.onError(onError);

export { app };
/** The API's type, for typed calls with `hc<AppType>()` from `hono/client`. */
export type AppType = typeof routes;
