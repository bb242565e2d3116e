import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { generateAccessToken, generateApiKey } from "../../src/domain/credential-format";
import { sha256Hex } from "../../src/lib/crypto";
import { kvKeys } from "../../src/lib/kv-keys";
import { SCOPES, type Scope } from "../../src/lib/scopes";
import { LEARNER_OPERATIONS, REPORT_OPERATIONS } from "../../src/sessions/allowed-operations";
import { keptGrade, learner, ledger } from "../lti/learners";
import { newPlatform, planRoster, rosterLaunch, type TestPlatform, unique as uniqueName } from "../lti/platform";
import { type AnswerOf, type CallOptions, call, callRaw, expectProblem, type KnownPath, seedApiKey } from "../support/call";
import { png } from "../support/images";

/**
 * §3 over every /v1 route the app serves: each credential that must be refused is refused with
 * the right status and WWW-Authenticate, and each credential form that must work does. The
 * table below lists every route; a route the app serves but the table lacks fails the first
 * test, so a new route must be added here with its scope and a request that succeeds.
 */

interface Req {
  path: string;
  body?: unknown;
  /** A body that is not JSON (an import's file, an image), with its media type. */
  file?: { body: string | Uint8Array; type: string };
}

interface RouteCase {
  /** The scope the route needs; null: any valid credential. */
  scope: Scope | null;
  /**
   * A request that succeeds for a credential with the scope; called afresh for each success, with
   * the headers it will be sent with (a webhook endpoint must be the caller's own).
   */
  build: (caller?: Presented) => Promise<Req>;
  /**
   * A route open to any credential whose answer depends on a scope the caller holds (a job is
   * visible to the scope that started it, 404 to others): the successful caller's scope.
   */
  holder?: Scope;
  /** A second scope the route needs besides `scope` (both are checked, `scope` first). */
  also?: Scope;
  /** Only a learner token may call it: every other credential → 403 (GET /v1/learner-sessions/current). */
  learnerOnly?: true;
}

const REALM = 'Bearer realm="quiz"';
const unique = (label: string) => `${label} ${crypto.randomUUID()}`;
/** Each request from its own client IP, so that no per-IP limit on unauthenticated calls trips here. */
const randomSeed = () => crypto.getRandomValues(new Uint32Array(1))[0]!;
const randomIp = () => `10.${[...crypto.getRandomValues(new Uint8Array(3))].join(".")}`;

// ── fixtures, all made by the file's admin key ──────────────────────────────────────────────

/**
 * Admin keys that make the fixtures, taken in turn: the matrix makes a few hundred of them, and
 * one key would come near its per-credential rate limit.
 */
const admins: string[] = [];
let turn = 0;
const nextAdmin = () => (admins.length ? admins[turn++ % admins.length] : undefined);

type Method = NonNullable<CallOptions["method"]>;
/** A call that must succeed; its JSON (a GET without a body, else a POST or the method named). */
async function ok<P extends KnownPath>(path: P): Promise<AnswerOf<P>["json"]>;
async function ok<P extends KnownPath, M extends Method = "POST">(
  path: P,
  body: unknown,
  method?: M,
): Promise<AnswerOf<P, { method: M }>["json"]>;
async function ok(path: KnownPath, body?: unknown, method?: Method) {
  const res = await callRaw(path, { body, method, auth: nextAdmin() });
  expect(res.status, `${method ?? (body ? "POST" : "GET")} ${path}: ${res.text}`).toBeLessThan(300);
  return res.json;
}

const tf = () => ({ type: "true_false", prompt: unique("Is it?"), correct: true });

async function newQuiz(): Promise<{ id: string; questionId: string }> {
  const quiz = await ok("/v1/quizzes", { title: unique("Quiz"), questions: [tf()] });
  const questions = await ok(`/v1/quizzes/${quiz.id}/questions`);
  return { id: quiz.id, questionId: questions.questions[0]!.id };
}

const newUser = async (): Promise<string> =>
  (await ok("/v1/users", { name: "Ada", email: `${crypto.randomUUID()}@example.com` })).id;
const newKey = async (): Promise<string> => (await ok("/v1/api-keys", { name: "fixture", scopes: ["quizzes:read"] })).id;
const newClient = async (): Promise<string> => (await ok("/v1/oauth-clients", { name: "fixture", scopes: ["quizzes:read"] })).id;
const newSubmission = async (quizId: string, userId: string): Promise<string> =>
  (await ok(`/v1/quizzes/${quizId}/submissions`, { user_id: userId })).id;

/** A registration of an LTI platform (its URLs are never fetched here). */
const ltiRegistration = () => ({
  issuer: `https://${uniqueName("lms")}.example.org`,
  client_id: "matrix",
  deployment_ids: ["1"],
  auth_token_url: "https://lms.example.org/token",
  jwks_url: "https://lms.example.org/jwks",
});
const newLtiPlatform = async (): Promise<string> => (await ok("/v1/lti/platforms", ltiRegistration())).id;

/** A webhook endpoint of the loopback receiver: the admin's, or the caller's (only its creator sees it). */
const newEndpoint = async (caller?: Presented): Promise<string> => {
  const body = { url: `${env.WEBHOOK_RECEIVER_URL}/hook/ok-matrix`, events: ["quiz.created"] };
  if (!caller) return (await ok("/v1/webhook-endpoints", body)).id;
  const res = await send("POST", { path: "/v1/webhook-endpoints", body }, caller);
  expect(res.status, res.text).toBe(201);
  return (res.json as AnswerOf<"/v1/webhook-endpoints", { method: "POST" }>["json"]).id;
};
const newLearnerSession = async (quizId = f.quiz.id, userId = f.user) =>
  ok("/v1/learner-sessions", { user_id: userId, quiz_id: quizId });
const newReportSession = async (quizIds = [f.quiz.id]) => ok("/v1/report-sessions", { quiz_ids: quizIds });
const newJob = async (): Promise<string> => (await ok(`/v1/quizzes/${f.quiz.id}/regrade`, {})).id;
/** The id of the newest event (every fixture records one). */
const newestEvent = async (): Promise<string> => (await ok("/v1/events?limit=1")).events[0]!.id;

interface Fixtures {
  quiz: { id: string; questionId: string };
  user: string;
  open: string;
  graded: string;
  key: string;
  client: string;
  /** A loopback LTI platform (test/lti-platform.ts), a ledger row of one of its learners, a launch with its roster (NRPS). */
  lti: { platform: TestPlatform; passback: string; rosterLaunch: string };
  /** An image's URL (/v1/assets/ast_…). */
  asset: string;
}
let f: Fixtures;

const get = (path: string) => async (): Promise<Req> => ({ path });

/** Every /v1 route, as Hono names it (`METHOD /v1/path/:param`). */
const ROUTES: Record<string, RouteCase> = {
  "GET /v1/auth/verify": { scope: null, build: get("/v1/auth/verify") },

  "GET /v1/quizzes": { scope: "quizzes:read", build: get("/v1/quizzes") },
  "POST /v1/quizzes": { scope: "quizzes:write", build: async () => ({ path: "/v1/quizzes", body: { title: unique("Quiz") } }) },
  "GET /v1/quizzes/:id": { scope: "quizzes:read", build: async () => ({ path: `/v1/quizzes/${f.quiz.id}` }) },
  "PATCH /v1/quizzes/:id": {
    scope: "quizzes:write",
    build: async () => ({ path: `/v1/quizzes/${(await newQuiz()).id}`, body: { title: unique("Renamed") } }),
  },
  "DELETE /v1/quizzes/:id": { scope: "quizzes:write", build: async () => ({ path: `/v1/quizzes/${(await newQuiz()).id}` }) },
  "GET /v1/quizzes/:id/questions": { scope: "quizzes:read", build: async () => ({ path: `/v1/quizzes/${f.quiz.id}/questions` }) },
  "POST /v1/quizzes/:id/questions": {
    scope: "quizzes:write",
    build: async () => ({ path: `/v1/quizzes/${(await newQuiz()).id}/questions`, body: tf() }),
  },
  "GET /v1/quizzes/:id/questions/:question_id": {
    scope: "quizzes:read",
    build: async () => ({ path: `/v1/quizzes/${f.quiz.id}/questions/${f.quiz.questionId}` }),
  },
  "PATCH /v1/quizzes/:id/questions/:question_id": {
    scope: "quizzes:write",
    build: async () => {
      const quiz = await newQuiz();
      return { path: `/v1/quizzes/${quiz.id}/questions/${quiz.questionId}`, body: { prompt: unique("Changed?") } };
    },
  },
  "DELETE /v1/quizzes/:id/questions/:question_id": {
    scope: "quizzes:write",
    build: async () => {
      const quiz = await newQuiz();
      return { path: `/v1/quizzes/${quiz.id}/questions/${quiz.questionId}` };
    },
  },
  "POST /v1/quizzes/:id/submissions": {
    scope: "submissions:write",
    build: async () => ({ path: `/v1/quizzes/${f.quiz.id}/submissions`, body: { user_id: f.user } }),
  },
  "GET /v1/quizzes/:id/submissions": {
    scope: "submissions:read",
    build: async () => ({ path: `/v1/quizzes/${f.quiz.id}/submissions` }),
  },
  "GET /v1/quizzes/:id/accommodations": {
    scope: "quizzes:write",
    build: async () => ({ path: `/v1/quizzes/${f.quiz.id}/accommodations` }),
  },
  "PUT /v1/quizzes/:id/accommodations/:user_id": {
    scope: "quizzes:write",
    build: async () => ({ path: `/v1/quizzes/${f.quiz.id}/accommodations/${f.user}`, body: { extra_attempts: 1 } }),
  },
  "DELETE /v1/quizzes/:id/accommodations/:user_id": {
    scope: "quizzes:write",
    build: async () => {
      const user = await newUser();
      await ok(`/v1/quizzes/${f.quiz.id}/accommodations/${user}`, { extra_time_seconds: 60 }, "PUT");
      return { path: `/v1/quizzes/${f.quiz.id}/accommodations/${user}` };
    },
  },

  "GET /v1/users": { scope: "users:read", build: get("/v1/users") },
  "POST /v1/users": {
    scope: "users:write",
    build: async () => ({ path: "/v1/users", body: { name: "Grace", email: `${crypto.randomUUID()}@example.com` } }),
  },
  "GET /v1/users/:id": { scope: "users:read", build: async () => ({ path: `/v1/users/${f.user}` }) },
  "PATCH /v1/users/:id": {
    scope: "users:write",
    build: async () => ({ path: `/v1/users/${await newUser()}`, body: { name: "Renamed" } }),
  },
  "DELETE /v1/users/:id": { scope: "users:write", build: async () => ({ path: `/v1/users/${await newUser()}` }) },
  "GET /v1/users/:id/submissions": {
    scope: "submissions:read",
    build: async () => ({ path: `/v1/users/${f.user}/submissions` }),
  },
  "GET /v1/users/:id/grades": { scope: "submissions:read", build: async () => ({ path: `/v1/users/${f.user}/grades` }) },
  "GET /v1/quizzes/:id/export": {
    scope: "quizzes:write",
    build: async () => ({ path: `/v1/quizzes/${f.quiz.id}/export?format=gift` }),
  },
  "POST /v1/imports": {
    scope: "quizzes:write",
    build: async () => ({
      path: "/v1/imports?format=aiken",
      file: { body: `${unique("Capital of France?")}\nA. Paris\nB. Lyon\nANSWER: A\n`, type: "text/plain" },
    }),
  },
  "POST /v1/assets": {
    scope: "quizzes:write",
    build: async () => ({ path: "/v1/assets", file: { body: png(2, 2, randomSeed()), type: "image/png" } }),
  },
  "GET /v1/quizzes/:id/assets": { scope: "quizzes:read", build: async () => ({ path: `/v1/quizzes/${f.quiz.id}/assets` }) },
  "POST /v1/quizzes/:id/regrade": {
    scope: "quizzes:write",
    build: async () => ({ path: `/v1/quizzes/${f.quiz.id}/regrade`, body: { policy: "higher_of" } }),
  },
  "GET /v1/jobs/:id": { scope: null, holder: "quizzes:write", build: async () => ({ path: `/v1/jobs/${await newJob()}` }) },
  "GET /v1/jobs/:id/changes": {
    scope: null,
    holder: "quizzes:write",
    build: async () => ({ path: `/v1/jobs/${await newJob()}/changes` }),
  },
  "GET /v1/quizzes/:id/grades": { scope: "submissions:read", build: async () => ({ path: `/v1/quizzes/${f.quiz.id}/grades` }) },
  "GET /v1/quizzes/:id/results/export": {
    scope: "submissions:read",
    build: async () => ({ path: `/v1/quizzes/${f.quiz.id}/results/export?format=csv&shape=submissions` }),
  },

  "GET /v1/submissions/:id": { scope: "submissions:read", build: async () => ({ path: `/v1/submissions/${f.open}` }) },
  "PUT /v1/submissions/:id/answers": {
    scope: "submissions:write",
    build: async () => ({
      path: `/v1/submissions/${f.open}/answers`,
      body: { answers: [{ question_id: f.quiz.questionId, response: true }] },
    }),
  },
  "PUT /v1/submissions/:id/answers/:question_id": {
    scope: "submissions:write",
    build: async () => ({
      path: `/v1/submissions/${f.open}/answers/${f.quiz.questionId}`,
      body: { response: true, seq: Date.now() },
    }),
  },
  "POST /v1/submissions/:id/grade": {
    scope: "submissions:write",
    build: async () => ({ path: `/v1/submissions/${await newSubmission(f.quiz.id, f.user)}/grade` }),
  },
  "GET /v1/submissions/:id/results": {
    scope: "submissions:read",
    build: async () => ({ path: `/v1/submissions/${f.graded}/results` }),
  },
  "PUT /v1/submissions/:id/reviews/:question_id": {
    scope: "reviews:write",
    build: async () => {
      const essay = await ok("/v1/quizzes", { title: unique("Essay"), questions: [{ type: "essay", prompt: "Why?" }] });
      const sub = await ok(`/v1/quizzes/${essay.id}/submissions`, {
        user_id: f.user,
        answers: [{ question_id: essay.question_ids[0], response: "Because." }],
      });
      await ok(`/v1/submissions/${sub.id}/grade`, undefined, "POST");
      return { path: `/v1/submissions/${sub.id}/reviews/${essay.question_ids[0]}`, body: { points: 1 } };
    },
  },

  "GET /v1/analytics/quiz/:id": { scope: "analytics:read", build: async () => ({ path: `/v1/analytics/quiz/${f.quiz.id}` }) },
  "GET /v1/analytics/quiz/:id/items": {
    scope: "analytics:read",
    build: async () => ({ path: `/v1/analytics/quiz/${f.quiz.id}/items?attempts=first` }),
  },
  "GET /v1/analytics/user/:id": { scope: "analytics:read", build: async () => ({ path: `/v1/analytics/user/${f.user}` }) },

  "GET /v1/api-keys": { scope: "admin", build: get("/v1/api-keys") },
  "POST /v1/api-keys": {
    scope: "admin",
    build: async () => ({ path: "/v1/api-keys", body: { name: "new", scopes: ["users:read"] } }),
  },
  "GET /v1/api-keys/:id": { scope: "admin", build: async () => ({ path: `/v1/api-keys/${f.key}` }) },
  "POST /v1/api-keys/:id/rotate": {
    scope: "admin",
    build: async () => ({ path: `/v1/api-keys/${await newKey()}/rotate`, body: {} }),
  },
  "DELETE /v1/api-keys/:id": { scope: "admin", build: async () => ({ path: `/v1/api-keys/${await newKey()}` }) },
  "GET /v1/api-keys/:id/usage": { scope: "admin", build: async () => ({ path: `/v1/api-keys/${f.key}/usage` }) },

  "GET /v1/oauth-clients": { scope: "admin", build: get("/v1/oauth-clients") },
  "POST /v1/oauth-clients": {
    scope: "admin",
    build: async () => ({ path: "/v1/oauth-clients", body: { name: "new", scopes: ["users:read"] } }),
  },
  "GET /v1/oauth-clients/:id": { scope: "admin", build: async () => ({ path: `/v1/oauth-clients/${f.client}` }) },
  "POST /v1/oauth-clients/:id/rotate-secret": {
    scope: "admin",
    build: async () => ({ path: `/v1/oauth-clients/${await newClient()}/rotate-secret` }),
  },
  "DELETE /v1/oauth-clients/:id": { scope: "admin", build: async () => ({ path: `/v1/oauth-clients/${await newClient()}` }) },

  "GET /v1/events": { scope: "events:read", build: get("/v1/events") },
  "GET /v1/events/:id": { scope: "events:read", build: async () => ({ path: `/v1/events/${await newestEvent()}` }) },
  "POST /v1/events/:id/redeliver": {
    scope: "webhooks:write",
    build: async () => ({ path: `/v1/events/${await newestEvent()}/redeliver`, body: {} }),
  },

  "GET /v1/webhook-endpoints": { scope: "webhooks:write", build: get("/v1/webhook-endpoints") },
  "POST /v1/webhook-endpoints": {
    scope: "webhooks:write",
    build: async () => ({
      path: "/v1/webhook-endpoints",
      body: { url: `${env.WEBHOOK_RECEIVER_URL}/hook/ok-matrix`, events: ["*"] },
    }),
  },
  "GET /v1/webhook-endpoints/:id": {
    scope: "webhooks:write",
    build: async (caller) => ({ path: `/v1/webhook-endpoints/${await newEndpoint(caller)}` }),
  },
  "PATCH /v1/webhook-endpoints/:id": {
    scope: "webhooks:write",
    build: async (caller) => ({ path: `/v1/webhook-endpoints/${await newEndpoint(caller)}`, body: { description: "renamed" } }),
  },
  "DELETE /v1/webhook-endpoints/:id": {
    scope: "webhooks:write",
    build: async (caller) => ({ path: `/v1/webhook-endpoints/${await newEndpoint(caller)}` }),
  },
  "POST /v1/webhook-endpoints/:id/rotate-secret": {
    scope: "webhooks:write",
    build: async (caller) => ({ path: `/v1/webhook-endpoints/${await newEndpoint(caller)}/rotate-secret` }),
  },
  "GET /v1/webhook-endpoints/:id/deliveries": {
    scope: "webhooks:write",
    build: async (caller) => ({ path: `/v1/webhook-endpoints/${await newEndpoint(caller)}/deliveries` }),
  },
  "POST /v1/webhook-endpoints/:id/test": {
    scope: "webhooks:write",
    build: async (caller) => ({ path: `/v1/webhook-endpoints/${await newEndpoint(caller)}/test` }),
  },

  "GET /v1/lti/platforms": { scope: "admin", build: get("/v1/lti/platforms") },
  "POST /v1/lti/platforms": { scope: "admin", build: async () => ({ path: "/v1/lti/platforms", body: ltiRegistration() }) },
  "GET /v1/lti/platforms/:id": { scope: "admin", build: async () => ({ path: `/v1/lti/platforms/${f.lti.platform.id}` }) },
  "PATCH /v1/lti/platforms/:id": {
    scope: "admin",
    build: async () => ({ path: `/v1/lti/platforms/${await newLtiPlatform()}`, body: { deployment_ids: ["2"] } }),
  },
  "DELETE /v1/lti/platforms/:id": {
    scope: "admin",
    build: async () => ({ path: `/v1/lti/platforms/${await newLtiPlatform()}` }),
  },
  "PUT /v1/lti/links/:resource_link_id": {
    scope: "admin",
    build: async () => ({
      path: `/v1/lti/links/${uniqueName("link")}`,
      body: { platform_id: f.lti.platform.id, quiz_id: f.quiz.id },
    }),
  },
  "POST /v1/lti/launches": {
    scope: "lti:launch",
    build: async () => ({ path: "/v1/lti/launches", body: { id_token: await f.lti.platform.sign(f.lti.platform.claims()) } }),
  },
  "POST /v1/lti/launches/:launch_id/roster-sync": {
    scope: "admin",
    build: async () => ({ path: `/v1/lti/launches/${f.lti.rosterLaunch}/roster-sync` }),
  },
  "GET /v1/lti/launches/:launch_id/roster": {
    scope: "admin",
    build: async () => ({ path: `/v1/lti/launches/${f.lti.rosterLaunch}/roster` }),
  },
  "POST /v1/lti/keys/rotate": { scope: "admin", build: get("/v1/lti/keys/rotate") },
  "GET /v1/lti/passbacks": { scope: "submissions:read", build: get("/v1/lti/passbacks") },
  "POST /v1/lti/passbacks/:id/retry": {
    scope: "admin",
    build: async () => ({ path: `/v1/lti/passbacks/${f.lti.passback}/retry` }),
  },
  "POST /v1/quizzes/:id/lti/resync": { scope: "admin", build: async () => ({ path: `/v1/quizzes/${f.quiz.id}/lti/resync` }) },

  "POST /v1/learner-sessions": {
    scope: "learners:write",
    build: async () => ({ path: "/v1/learner-sessions", body: { user_id: f.user, quiz_id: f.quiz.id } }),
  },
  "GET /v1/learner-sessions/current": { scope: null, learnerOnly: true, build: get("/v1/learner-sessions/current") },
  "GET /v1/learner-sessions/:id": {
    scope: "learners:write",
    build: async () => ({ path: `/v1/learner-sessions/${(await newLearnerSession()).id}` }),
  },
  "DELETE /v1/learner-sessions/:id": {
    scope: "learners:write",
    build: async () => ({ path: `/v1/learner-sessions/${(await newLearnerSession()).id}` }),
  },
  "POST /v1/report-sessions": {
    scope: "analytics:read",
    also: "submissions:read",
    build: async () => ({ path: "/v1/report-sessions", body: { quiz_ids: [f.quiz.id] } }),
  },
  "GET /v1/report-sessions/:id": {
    scope: "analytics:read",
    also: "submissions:read",
    build: async () => ({ path: `/v1/report-sessions/${(await newReportSession()).id}` }),
  },
  "DELETE /v1/report-sessions/:id": {
    scope: "analytics:read",
    also: "submissions:read",
    build: async () => ({ path: `/v1/report-sessions/${(await newReportSession()).id}` }),
  },
};

/**
 * The /v1 routes open to anyone (CONTRACT §19: an asset's id is unguessable): no credential is
 * needed, and one sent is not looked at, whatever it is.
 */
const PUBLIC_ROUTES: Record<string, { build: () => Promise<Req> }> = {
  "GET /v1/assets/:id": { build: async () => ({ path: f.asset }) },
};

/** The /v1 routes the app serves, one entry per method and path. */
function servedRoutes(): string[] {
  const served = app.routes.filter((r) => r.method !== "ALL" && r.path.startsWith("/v1/")).map((r) => `${r.method} ${r.path}`);
  return [...new Set(served)].sort();
}

// ── credentials ─────────────────────────────────────────────────────────────────────────────

type Presented = Record<string, string>;
const bearer = (credential: string): Presented => ({ authorization: `Bearer ${credential}` });

/** A key with exactly the scope (any key for scope-less routes), and an access token likewise. */
const keys = new Map<Scope | null, string>();
const tokens = new Map<Scope | null, string>();
/** Keys holding every scope but the one named and admin. */
const lacking = new Map<Scope, string>();

interface Refused {
  name: string;
  headers: Presented;
}
let refused: Refused[];
let tokenClient: { client_id: string; client_secret: string };

async function accessToken(clientId: string, clientSecret: string, scope: string): Promise<string> {
  const res = await call("/oauth/token", {
    auth: false,
    raw: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret, scope }),
    headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": randomIp() },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.access_token;
}

/** Sends a route's request with the given headers in place of the file's admin key. */
function send(method: string, req: Req, headers: Presented) {
  const file = req.file ? { raw: req.file.body, contentType: { "content-type": req.file.type } } : undefined;
  return callRaw(req.path, {
    method,
    body: req.body,
    raw: file?.raw,
    auth: false,
    headers: { "cf-connecting-ip": randomIp(), ...file?.contentType, ...headers },
  });
}

beforeAll(async () => {
  for (let i = 0; i < 6; i++) admins.push((await seedApiKey(["admin"], { name: `matrix admin ${i}` })).key);
  const quiz = await newQuiz();
  const user = await newUser();
  const [open, graded, key, client] = await Promise.all([
    newSubmission(quiz.id, user),
    newSubmission(quiz.id, user),
    newKey(),
    newClient(),
  ]);
  await ok(`/v1/submissions/${graded}/grade`, undefined, "POST");
  // A learner launched from a loopback platform, whose kept grade has a ledger row.
  const platform = await newPlatform();
  const taker = await learner(platform, quiz.id, platform.lineitem(uniqueName("item")));
  await keptGrade(quiz.id, taker, { earned: 1, possible: 1 });
  const [row] = await ledger(`&user_id=${taker.userId}`);
  const roster = await rosterLaunch(platform, await planRoster(platform, { pages: [[]] }));
  const image = await callRaw("/v1/assets", {
    raw: png(3, 3, randomSeed()),
    headers: { "content-type": "image/png" },
    auth: nextAdmin(),
  });
  expect(image.status, image.text).toBe(201);
  const asset = (image.json as { url: string }).url;
  f = { quiz, user, open, graded, key, client, lti: { platform, passback: row!.id, rosterLaunch: roster.launch_id }, asset };

  // One client holding every scope hands out a token per scope.
  tokenClient = await ok("/v1/oauth-clients", { name: "matrix", scopes: [...SCOPES] });
  const scopes = [null, ...SCOPES] as const;
  await Promise.all(
    scopes.map(async (scope) => {
      keys.set(scope, (await seedApiKey(scope ? [scope] : ["quizzes:read"], { name: `only ${scope}` })).key);
      tokens.set(scope, await accessToken(tokenClient.client_id, tokenClient.client_secret, scope ?? "users:read"));
      if (scope) lacking.set(scope, (await seedApiKey(SCOPES.filter((s) => s !== scope && s !== "admin"))).key);
    }),
  );

  // Refused credentials, each of which would be an admin's but for the one thing wrong with it.
  const wellFormed = generateApiKey();
  const badChecksum = wellFormed.slice(0, -1) + (wellFormed.endsWith("0") ? "1" : "0");
  const revoked = await seedApiKey(["admin"], { name: "revoked" });
  const rotated = await seedApiKey(["admin"], { name: "rotated" });
  const expired = await seedApiKey(["admin"], { name: "expired", expiresAt: new Date(Date.now() - 60_000).toISOString() });
  // Used first, so that the KV cache holds them live: revoking and rotating must overwrite it.
  for (const k of [revoked.key, rotated.key]) expect((await call("/v1/auth/verify", { auth: k })).status).toBe(200);
  expect((await call(`/v1/api-keys/${revoked.id}`, { method: "DELETE" })).status).toBe(204);
  expect((await call(`/v1/api-keys/${rotated.id}/rotate`, { body: { grace_seconds: 0 } })).status).toBe(201);

  const expiredToken = generateAccessToken();
  const now = Math.floor(Date.now() / 1000);
  await env.KV.put(
    kvKeys.accessToken(await sha256Hex(expiredToken)),
    JSON.stringify({
      client_id: tokenClient.client_id,
      scopes: [...SCOPES],
      family_id: crypto.randomUUID(),
      iat: now - 7200,
      exp: now - 3600,
    }),
    { expirationTtl: 3600 },
  );

  // Session tokens refused the same way: revoked, and past their expiry (§17).
  const revokedLearner = await newLearnerSession();
  expect((await call(`/v1/learner-sessions/${revokedLearner.id}`, { method: "DELETE" })).status).toBe(204);
  const expiredLearner = await newLearnerSession();
  const revokedReport = await newReportSession();
  expect((await call(`/v1/report-sessions/${revokedReport.id}`, { method: "DELETE" })).status).toBe(204);
  const expiredReport = await newReportSession();
  const past = new Date(Date.now() - 60_000).toISOString();
  await env.DB.batch([
    env.DB.prepare("UPDATE learner_sessions SET expires_at = ? WHERE id = ?").bind(past, expiredLearner.id),
    env.DB.prepare("UPDATE report_sessions SET expires_at = ? WHERE id = ?").bind(past, expiredReport.id),
  ]);
  await sessionFixtures();

  refused = [
    { name: "a revoked learner token", headers: bearer(revokedLearner.token) },
    { name: "an expired learner token", headers: bearer(expiredLearner.token) },
    { name: "a revoked report token", headers: bearer(revokedReport.token) },
    { name: "an expired report token", headers: bearer(expiredReport.token) },
    { name: "a malformed key (bad checksum)", headers: bearer(badChecksum) },
    { name: "a malformed key in X-API-Key", headers: { "x-api-key": badChecksum } },
    { name: "an unknown well-formed key", headers: bearer(wellFormed) },
    { name: "a revoked key", headers: bearer(revoked.key) },
    { name: "an expired key", headers: { "x-api-key": expired.key } },
    { name: "a key past its rotation grace", headers: bearer(rotated.key) },
    { name: "an expired access token", headers: bearer(expiredToken) },
  ];
}, 90_000); // some fifty requests: give a loaded machine room

// ── the matrix ──────────────────────────────────────────────────────────────────────────────

describe("the route table", () => {
  it("lists every /v1 route the app serves, and only those", () => {
    const served = servedRoutes();
    expect(served.length).toBeGreaterThan(0);
    const listed = { ...ROUTES, ...PUBLIC_ROUTES };
    for (const route of served)
      expect(listed, `${route} is served but missing from ROUTES in auth-matrix.test.ts`).toHaveProperty([route]);
    for (const route of Object.keys(listed)) expect(served, `${route} is in ROUTES but not served`).toContain(route);
    for (const route of Object.keys(PUBLIC_ROUTES)) expect(ROUTES, `${route} is public and guarded`).not.toHaveProperty([route]);
  });
});

describe.each(Object.entries(PUBLIC_ROUTES))("%s (public)", (name, route) => {
  const method = name.slice(0, name.indexOf(" "));

  it("no credential → 200, without WWW-Authenticate", async () => {
    const res = await send(method, await route.build(), {});
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("www-authenticate")).toBeNull();
  });

  it("invalid, unknown, revoked, expired or rotated-out credentials are not looked at → 200", async () => {
    const req = await route.build();
    for (const { name: what, headers } of refused) {
      const res = await send(method, req, headers);
      expect(res.status, `${what}: ${res.text}`).toBe(200);
    }
  });

  it("a key without any of the API's scopes but one → 200", async () => {
    const res = await send(method, await route.build(), bearer(keys.get("users:read")!));
    expect(res.status, res.text).toBe(200);
  });
});

// Concurrent (vitest runs up to 5 at once): the cases share only read-only fixtures.
describe.concurrent.each(Object.entries(ROUTES))("%s", { timeout: 20_000 }, (name, route) => {
  const method = name.slice(0, name.indexOf(" "));
  let denied: Promise<Req> | undefined;
  /** One request for every refusal: a refused request never reaches the handler. */
  const deniedRequest = () => (denied ??= route.build());

  it('no credential → 401 with WWW-Authenticate: Bearer realm="quiz" (no error)', async () => {
    const res = await send(method, await deniedRequest(), {});
    expectProblem(res, 401, "unauthorized");
    expect(res.headers.get("www-authenticate")).toBe(REALM);
  });

  it("invalid, unknown, revoked, expired or rotated-out credentials → 401 invalid_token", async () => {
    const req = await deniedRequest();
    const answers = await Promise.all(
      refused.map(async ({ name: what, headers }) => ({ what, res: await send(method, req, headers) })),
    );
    for (const { what, res } of answers) {
      expect(res.status, `${what}: ${res.text}`).toBe(401);
      expectProblem(res, 401, "invalid_token");
      const challenge = res.headers.get("www-authenticate") ?? "";
      expect(challenge.startsWith(REALM), `${what}: ${challenge}`).toBe(true);
      expect(challenge, what).toContain('error="invalid_token"');
    }
  });

  if (route.scope) {
    const scope = route.scope;
    it(`a credential without ${scope} → 403 insufficient_scope, scope="${scope}"`, async () => {
      const res = await send(method, await deniedRequest(), bearer(lacking.get(scope)!));
      expectProblem(res, 403, "insufficient_scope");
      const challenge = res.headers.get("www-authenticate") ?? "";
      expect(challenge.startsWith(REALM), challenge).toBe(true);
      expect(challenge).toContain('error="insufficient_scope"');
      expect(challenge).toContain(`scope="${scope}"`);
    });
  }

  if (route.also) {
    const also = route.also;
    it(`a credential with ${route.scope} but without ${also} → 403 insufficient_scope, scope="${also}"`, async () => {
      const res = await send(method, await deniedRequest(), bearer(keys.get(route.scope)!));
      expectProblem(res, 403, "insufficient_scope");
      expect(res.headers.get("www-authenticate")).toContain(`scope="${also}"`);
    });
  }

  if (route.learnerOnly) {
    it("an API key or an access token, whatever its scopes → 403 insufficient_scope", async () => {
      for (const headers of [bearer(keys.get("admin")!), bearer(tokens.get("admin")!)])
        expectProblem(await send(method, await deniedRequest(), headers), 403, "insufficient_scope");
    });
    return;
  }

  it(`a key with ${route.scope ?? "any scope"} as X-API-Key, as Bearer, and an access token → 2xx`, async () => {
    const scopes = [route.holder ?? route.scope, ...(route.also ? [route.also] : [])];
    const key = scopes.length > 1 ? (await seedApiKey(scopes as Scope[])).key : keys.get(scopes[0] ?? null)!;
    const token =
      scopes.length > 1
        ? await accessToken(tokenClient.client_id, tokenClient.client_secret, scopes.join(" "))
        : tokens.get(scopes[0] ?? null)!;
    const forms: [string, Presented][] = [
      ["X-API-Key", { "x-api-key": key }],
      ["Bearer key", bearer(key)],
      ["access token", bearer(token)],
    ];
    const answers = await Promise.all(
      forms.map(async ([form, headers]) => ({ form, res: await send(method, await route.build(headers), headers) })),
    );
    for (const { form, res } of answers) {
      expect(res.status, `${form}: ${res.text}`).toBeGreaterThanOrEqual(200);
      expect(res.status, `${form}: ${res.text}`).toBeLessThan(300);
    }
  });
});

describe("which header carries the credential", () => {
  it("X-API-Key and Authorization with different credentials → 400", async () => {
    const other = (await seedApiKey(["quizzes:read"])).key;
    const res = await send("GET", { path: "/v1/quizzes" }, { "x-api-key": keys.get("quizzes:read")!, ...bearer(other) });
    expectProblem(res, 400);
  });

  it("X-API-Key and an access token in Authorization → 400", async () => {
    const res = await send(
      "GET",
      { path: "/v1/quizzes" },
      { "x-api-key": keys.get("quizzes:read")!, ...bearer(tokens.get("quizzes:read")!) },
    );
    expectProblem(res, 400);
  });

  it("the same key in both → 200", async () => {
    const key = keys.get("quizzes:read")!;
    const res = await send("GET", { path: "/v1/quizzes" }, { "x-api-key": key, ...bearer(key) });
    expect(res.status, res.text).toBe(200);
  });

  it("an access token in X-API-Key → 401 invalid_token", async () => {
    const res = await send("GET", { path: "/v1/quizzes" }, { "x-api-key": tokens.get("quizzes:read")! });
    expectProblem(res, 401, "invalid_token");
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("Authorization: Basic on /v1 → 401", async () => {
    const res = await send("GET", { path: "/v1/quizzes" }, { authorization: `Basic ${btoa("user:password")}` });
    expectProblem(res, 401);
    expect(res.headers.get("www-authenticate")?.startsWith(REALM)).toBe(true);
  });

  it("a key in Authorization without the Bearer scheme → 401", async () => {
    const res = await send("GET", { path: "/v1/quizzes" }, { authorization: keys.get("quizzes:read")! });
    expectProblem(res, 401);
  });

  it("the Bearer scheme is case-insensitive (RFC 7235)", async () => {
    const res = await send("GET", { path: "/v1/quizzes" }, { authorization: `bearer ${keys.get("quizzes:read")!}` });
    expect(res.status, res.text).toBe(200);
  });
});

// ── session tokens (§17) over every route ───────────────────────────────────────────────────

/** A learner's own quiz, user, token and submissions; a report token's own quiz and graded submission. */
interface SessionFixtures {
  learner: { quiz: { id: string; questionId: string }; user: string; token: string; open: string; graded: string };
  report: { quiz: string; graded: string; token: string };
}
let s: SessionFixtures;

async function sessionFixtures() {
  const [quiz, user, reportQuiz] = await Promise.all([newQuiz(), newUser(), newQuiz()]);
  const { token } = await newLearnerSession(quiz.id, user);
  const start = async () => {
    const res = await send("POST", { path: `/v1/quizzes/${quiz.id}/submissions`, body: {} }, bearer(token));
    expect(res.status, res.text).toBe(201);
    return (res.json as { id: string }).id;
  };
  const [open, graded] = await Promise.all([start(), start()]);
  await ok(`/v1/submissions/${graded}/grade`, undefined, "POST");
  const reportGraded = await newSubmission(reportQuiz.id, user);
  await ok(`/v1/submissions/${reportGraded}/grade`, undefined, "POST");
  const report = await newReportSession([reportQuiz.id]);
  s = {
    learner: { quiz, user, token, open, graded },
    report: { quiz: reportQuiz.id, graded: reportGraded, token: report.token },
  };
}

/** For each operation a learner token may call: a request for its own resources that succeeds. */
const LEARNER_CASES: Record<string, () => Promise<Req>> = {
  "GET /v1/learner-sessions/current": async () => ({ path: "/v1/learner-sessions/current" }),
  "POST /v1/quizzes/:id/submissions": async () => ({ path: `/v1/quizzes/${s.learner.quiz.id}/submissions`, body: {} }),
  "GET /v1/submissions/:id": async () => ({ path: `/v1/submissions/${s.learner.open}` }),
  "PUT /v1/submissions/:id/answers": async () => ({
    path: `/v1/submissions/${s.learner.open}/answers`,
    body: { answers: [{ question_id: s.learner.quiz.questionId, response: true }] },
  }),
  // The one-answer save (§17), served once its route is added.
  "PUT /v1/submissions/:id/answers/:question_id": async () => ({
    path: `/v1/submissions/${s.learner.open}/answers/${s.learner.quiz.questionId}`,
    body: { response: true, seq: Date.now() },
  }),
  "POST /v1/submissions/:id/grade": async () => {
    const res = await send("POST", { path: `/v1/quizzes/${s.learner.quiz.id}/submissions`, body: {} }, bearer(s.learner.token));
    return { path: `/v1/submissions/${(res.json as { id: string }).id}/grade` };
  },
  "GET /v1/submissions/:id/results": async () => ({ path: `/v1/submissions/${s.learner.graded}/results` }),
};

/** For each operation a report token may call: a request for its own quizzes that succeeds. */
const REPORT_CASES: Record<string, () => Promise<Req>> = {
  "GET /v1/auth/verify": async () => ({ path: "/v1/auth/verify" }),
  "GET /v1/quizzes": async () => ({ path: "/v1/quizzes" }),
  "GET /v1/quizzes/:id": async () => ({ path: `/v1/quizzes/${s.report.quiz}` }),
  "GET /v1/quizzes/:id/questions": async () => ({ path: `/v1/quizzes/${s.report.quiz}/questions` }),
  "GET /v1/analytics/quiz/:id": async () => ({ path: `/v1/analytics/quiz/${s.report.quiz}` }),
  "GET /v1/analytics/quiz/:id/items": async () => ({ path: `/v1/analytics/quiz/${s.report.quiz}/items` }),
  "GET /v1/quizzes/:id/submissions": async () => ({ path: `/v1/quizzes/${s.report.quiz}/submissions` }),
  "GET /v1/quizzes/:id/results/export": async () => ({
    path: `/v1/quizzes/${s.report.quiz}/results/export?format=csv&shape=submissions`,
  }),
  "GET /v1/submissions/:id/results": async () => ({ path: `/v1/submissions/${s.report.graded}/results` }),
};

describe("the session tables", () => {
  it("name only routes the app serves, and each has a case here", () => {
    const served = new Set(servedRoutes());
    for (const [table, cases] of [
      [LEARNER_OPERATIONS, LEARNER_CASES],
      [REPORT_OPERATIONS, REPORT_CASES],
    ] as const) {
      expect(Object.keys(cases).sort()).toEqual(Object.keys(table).sort());
      for (const operation of Object.keys(table)) expect(served.has(operation), `${operation} is not served`).toBe(true);
    }
  });
});

describe.concurrent.each(servedRoutes())("%s, with a learner token and a report token", { timeout: 20_000 }, (name) => {
  const method = name.slice(0, name.indexOf(" "));
  const pattern = name.slice(name.indexOf(" ") + 1);
  let others: Promise<Req> | undefined;
  /** The route's matrix request: the admin's fixtures, none of them a session's own. */
  const othersRequest = () => (others ??= ROUTES[name]!.build());

  for (const [kind, table, cases, token] of [
    ["learner", LEARNER_OPERATIONS, LEARNER_CASES, () => s.learner.token],
    ["report", REPORT_OPERATIONS, REPORT_CASES, () => s.report.token],
  ] as const) {
    const open = PUBLIC_ROUTES[name];
    if (open)
      it(`a ${kind} token is not looked at: the public answer`, async () => {
        const res = await send(method, await open.build(), bearer(token()));
        expect(res.status, res.text).toBe(200);
      });
    else if (name in table) {
      it(`a ${kind} token on its own resources → 2xx`, async () => {
        const res = await send(method, await cases[name]!(), bearer(token()));
        expect(res.status, res.text).toBeGreaterThanOrEqual(200);
        expect(res.status, res.text).toBeLessThan(300);
      });
      if (pattern.includes(":"))
        it(`a ${kind} token on resources not its session's → 404`, async () => {
          expectProblem(await send(method, await othersRequest(), bearer(token())), 404);
        });
    } else
      it(`a ${kind} token → 403 insufficient_scope`, async () => {
        const res = await send(method, await othersRequest(), bearer(token()));
        expectProblem(res, 403, "insufficient_scope");
        expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
      });
  }
});
