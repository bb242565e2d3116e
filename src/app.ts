import { createRoute, z } from "@hono/zod-openapi";
import { drizzle } from "drizzle-orm/d1";
import type { Context } from "hono";
import pkg from "../package.json";
import { WakeUps } from "./db/after-commit";
import { BOOKMARK_HEADER, sessionDatabase } from "./db/session";
import type { Database } from "./env";
import { config } from "./lib/config";
import { createRouter, jsonResponse } from "./lib/openapi";
import { openApiDocument } from "./lib/openapi-document";
import { SCOPES } from "./lib/scopes";
import { notFoundOrMethodNotAllowed, onError } from "./middleware/errors";
import { requestFrame } from "./middleware/frame";
import { publicReadGuard, v1Guard } from "./middleware/guard";
import { rateLimitOAuthEndpoints } from "./middleware/rate-limit";
import { docsAssets, landingPage, ltiToolAssets, playerAssets, reportsAssets, sharedAssets } from "./middleware/security-headers";
import { refuseSessionTokensAtOAuth } from "./middleware/session-guard";
import { accommodationsRouter } from "./routes/accommodations";
import { analyticsRouter } from "./routes/analytics";
import { apiKeysRouter } from "./routes/api-keys";
import { ASSET_UPLOAD, assetFilesRouter, assetsRouter, quizAssetsRouter } from "./routes/assets";
import { eventsRouter } from "./routes/events";
import { quizGradesRouter, userGradesRouter } from "./routes/grades";
import { IMPORT_UPLOAD, importsRouter } from "./routes/imports";
import { jobsRouter } from "./routes/jobs";
import { learnerSessionsRouter } from "./routes/learner-sessions";
import { jwksRouter, ltiRouter, quizLtiRouter } from "./routes/lti";
import { framableByPlatforms, ltiToolRouter } from "./routes/lti-tool";
import { oauthRouter } from "./routes/oauth";
import { oauthClientsRouter } from "./routes/oauth-clients";
import { problemsRouter } from "./routes/problems";
import { questionsRouter } from "./routes/questions";
import { quizzesRouter } from "./routes/quizzes";
import { regradeRouter } from "./routes/regrade";
import { reportSessionsRouter } from "./routes/report-sessions";
import { resultsExportRouter } from "./routes/results-export";
import { serviceRouter } from "./routes/service";
import { quizSubmissionsRouter, submissionsRouter, userSubmissionsRouter } from "./routes/submissions";
import { usersRouter } from "./routes/users";
import { verifyRouter } from "./routes/verify";
import { webhookEndpointsRouter } from "./routes/webhook-endpoints";
import { sendWakeUps } from "./worker/after-commit";

/** Every resource of the API, served under /v1. */
const v1 = createRouter()
  .route("/quizzes", quizzesRouter)
  .route("/quizzes", questionsRouter)
  .route("/quizzes", quizSubmissionsRouter)
  .route("/quizzes", accommodationsRouter)
  .route("/quizzes", regradeRouter)
  .route("/quizzes", quizLtiRouter)
  .route("/users", usersRouter)
  .route("/users", userSubmissionsRouter)
  .route("/quizzes", quizGradesRouter)
  .route("/quizzes", resultsExportRouter)
  .route("/quizzes", quizAssetsRouter)
  .route("/users", userGradesRouter)
  .route("/submissions", submissionsRouter)
  .route("/analytics", analyticsRouter)
  .route("/auth", verifyRouter)
  .route("/api-keys", apiKeysRouter)
  .route("/oauth-clients", oauthClientsRouter)
  .route("/jobs", jobsRouter)
  .route("/imports", importsRouter)
  .route("/assets", assetsRouter)
  .route("/events", eventsRouter)
  .route("/webhook-endpoints", webhookEndpointsRouter)
  .route("/lti", ltiRouter)
  .route("/learner-sessions", learnerSessionsRouter)
  .route("/report-sessions", reportSessionsRouter);

const app = createRouter();

/** Work that outlives the response; without an execution context (app.request in tools), left to finish by itself. */
function afterResponse(c: Context, work: Promise<unknown>): void {
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    void work;
  }
}

// Order matters: the frame first (src/middleware/frame.ts), so that whatever answers, the
// request's body has been read to its end before the answer leaves (wrangler dev's connection
// survives every early answer), every answer and log line carries the request id, the headers
// every answer carries are set on the final answer and the log line sees its final status; then
// the database.
app.use(requestFrame());
app.use(async (c, next) => {
  // No relational schema: the app uses the query builder only, and building drizzle's relational
  // config on every request costs CPU for nothing. /v1 runs in a D1 session (read replicas with
  // read-your-writes): from the client's bookmark, and its latest bookmark goes back on the answer.
  const v1 = c.req.path.startsWith("/v1/");
  const incoming = v1 ? c.req.header(BOOKMARK_HEADER) : undefined;
  let session: D1DatabaseSession | undefined;
  let db: Database;
  if (v1) ({ db, session } = sessionDatabase(c.env.DB, incoming));
  else db = drizzle(c.env.DB) as Database;
  c.set("db", db);
  const wakeUps = new WakeUps();
  c.set("wakeUps", wakeUps);
  try {
    await next();
  } finally {
    // Only a bookmark D1 returned, and only to a request its route authorized (nobody gets one
    // back unauthenticated, and the client's own is never echoed): the later of the session's and,
    // for an idempotent replay (which reads nothing), the replayed write's. Bookmarks sort in the
    // order of the writes they cover.
    if (v1) {
      const replayed = c.res.headers.get(BOOKMARK_HEADER);
      const bookmark = c.get("authorized")
        ? [session?.getBookmark(), replayed]
            .filter((b): b is string => typeof b === "string" && b !== "")
            .sort()
            .at(-1)
        : undefined;
      if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
      else if (replayed !== null) c.res.headers.delete(BOOKMARK_HEADER);
    }
  }
  // What the request's batches committed wakes (its events, ledger rows, jobs) goes to the queues
  // after the response, so neither delivery nor a passback slows the request; the list holds only
  // what committed, whatever the answer. The sweeps (cron) hand over what this misses.
  const woken = wakeUps.take();
  if (woken.length > 0) afterResponse(c, sendWakeUps(c.env, db, woken));
  // The contract's media type names the charset; Hono's c.json leaves it out.
  if (c.res.headers.get("content-type") === "application/json")
    c.res.headers.set("content-type", "application/json; charset=utf-8");
});
// The one /v1 read open to anyone, before the guard: an asset's bytes (GET and HEAD), counted per
// IP as requests without a credential are. Its answer ends the chain, so v1Guard never sees it.
app.use("/v1/assets/:id", publicReadGuard());
const publicV1 = app.route("/v1/assets", assetFilesRouter);
// The one guard of /v1 (src/middleware/guard.ts): identify the caller, count it (by credential,
// else by IP), refuse it without a valid credential, and check its body (JSON everywhere, but an
// import's or an image's file: its own media types and size). Routes declare the scope they need
// beside their definition.
app.use("/v1/*", v1Guard({ "POST /v1/imports": IMPORT_UPLOAD, "POST /v1/assets": ASSET_UPLOAD }));
// Every OAuth endpoint authenticates clients by secret: all are counted per IP, to slow guessing.
app.use("/oauth/*", rateLimitOAuthEndpoints());
// A learner or report token (§17) is refused at every OAuth endpoint.
app.use("/oauth/*", refuseSessionTokensAtOAuth());

const health = createRoute({
  operationId: "health",
  method: "get",
  path: "/health",
  tags: ["Service"],
  summary: "Liveness",
  description: "Answers 200 while the worker runs; public, no credential, not rate limited.",
  security: [],
  responses: {
    200: jsonResponse(z.object({ status: z.literal("ok") }).openapi({ example: { status: "ok" } }), "The service is up."),
  },
});

// GET /: a browser gets the landing page (a static asset); anyone else the JSON of serviceRouter.
app.use("/", landingPage());

const routes = publicV1
  .route("/", serviceRouter({ name: pkg.name, version: pkg.version }))
  .route("/v1", v1)
  .route("/", oauthRouter)
  .route("/", jwksRouter)
  .route("/problems", problemsRouter)
  .openapi(health, (c) => c.json({ status: "ok" as const }, 200));

// The document names ISSUER as its server when set, else the origin the request came to.
app.get("/openapi.json", (c) => c.json(openApiDocument(app, config(c.env).issuer ?? new URL(c.req.url).origin, pkg.version)));
app.openAPIRegistry.registerComponent("securitySchemes", "ApiKeyHeader", {
  type: "apiKey",
  in: "header",
  name: "X-API-Key",
  description: "An API key, qz_live_…",
});
app.openAPIRegistry.registerComponent("securitySchemes", "BearerAuth", {
  type: "http",
  scheme: "bearer",
  description: "An API key or an OAuth access token (qz_at_…).",
});
app.openAPIRegistry.registerComponent("securitySchemes", "OAuth2", {
  type: "oauth2",
  flows: {
    clientCredentials: {
      tokenUrl: "/oauth/token",
      refreshUrl: "/oauth/token",
      scopes: Object.fromEntries(SCOPES.map((s) => [s, s === "admin" ? "Everything, and managing keys and clients" : s])),
    },
  },
});
// The docs page and its renderer are static assets (public/), served under a strict CSP.
app.get("/docs", docsAssets());
app.get("/docs/*", docsAssets());
// The report a teacher looks at (public/reports/), under a policy as strict as the docs'; the
// pattern also matches /reports, which the assets redirect to /reports/.
// An LTI launch lands on the player or the report inside the LMS's frame: both may be framed by
// the registered platforms' frame_origins (docs/lti.md).
app.use("/reports/*", framableByPlatforms());
app.use("/play/*", framableByPlatforms());
app.get("/reports/*", reportsAssets());
// The player a learner takes a quiz in (public/play/), opened with a learner session's
// player_url (/play/#session=…); the same pattern serves /play, which the assets redirect to /play/.
app.get("/play/*", playerAssets());
// What both pages import (public/shared/: content.js, the formatted-text builder; dom.js, the element builders), once.
app.get("/shared/*", sharedAssets());
// The LTI tool's pages (login, launch, deep linking: HTML, outside /v1) and their two files.
app.get("/lti/auto-submit.js", ltiToolAssets());
app.get("/lti/tool.css", ltiToolAssets());
app.route("/lti", ltiToolRouter);

app.notFound(notFoundOrMethodNotAllowed(() => app.routes));
app.onError(onError);

export { app };
/** The API's type, for typed calls with `hc<AppType>()` from `hono/client`. */
export type AppType = typeof routes;
