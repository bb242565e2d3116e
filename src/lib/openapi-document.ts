import type { OpenAPIHono } from "@hono/zod-openapi";
import { IDEMPOTENCY_TTL_SECONDS } from "./kv-keys";
import { exampleCode, problemExample } from "./problems";

const DESCRIPTION = `Author quizzes, register users, take and grade submissions, read analytics.

Every /v1 operation but GET /v1/assets/{id} (an image, public by its unguessable id) needs a
credential: an API key (X-API-Key or Authorization: Bearer), an OAuth 2.0 access token from POST
/oauth/token (client credentials), or a session's token (qz_lt_… from POST /v1/learner-sessions,
qz_vt_… from POST /v1/report-sessions), which may call only what its session allows. Errors are RFC 9457 problem
details (application/problem+json) with a stable \`code\`, except on /oauth/*, where they follow
RFC 6749 §5.2. Every /v1 answer carries RateLimit-Policy and RateLimit headers; every POST under
/v1 accepts an Idempotency-Key. Every /v1 answer carries X-D1-Bookmark: send it back in the same
header to read your own writes from any read replica (a malformed one → 400 invalid_bookmark).

Compatibility: changes under /v1 are additive. What is to be removed is first marked deprecated
here and answered, whenever a request uses it, with Deprecation (RFC 9745) and Sunset (RFC 8594)
headers for at least 90 days before it may stop working; each release's changes and migration
notes are in the CHANGELOG. Security fixes may break at once, and say so.`;

type Response = { description?: string; headers?: Record<string, unknown>; content?: unknown };
type Operation = { description?: string; parameters?: unknown[]; responses?: Record<string, Response> };

const METHODS = ["get", "put", "post", "patch", "delete"] as const;

/**
 * What each tag of the document groups. The document's tag list is derived from the operations
 * (every tag a route names, in the order of this table), so no operation's tag is left out of it;
 * a tag with no description here fails the document's tests.
 */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Quizzes: "Quizzes and their settings.",
  Questions: "A quiz's questions, in order.",
  Users: "The people who take quizzes.",
  Submissions: "Attempts at a quiz: answers, grading (exactly once) and results.",
  Accommodations: "Extra time and extra attempts per user and quiz (scope quizzes:write).",
  Grades: "The score each user keeps at each quiz under its grading policy.",
  Regrade: "Grading a quiz's submissions again after its key changed, as a job (scope quizzes:write).",
  Imports: "Question banks in (QTI, Moodle XML, GIFT, Aiken) as jobs, with a report of every item (scope quizzes:write).",
  Assets: "Images for questions' HTML text: uploaded once (scope quizzes:write), served to anyone by an unguessable id.",
  Jobs: "Long work run in the background (regrades, imports, LTI resyncs): its progress, result and changes.",
  Analytics: "Aggregates of graded submissions, per quiz and per user, and item analysis.",
  Authentication: "Checking a credential.",
  "API keys": "Keys, rotation and usage (scope admin).",
  "OAuth clients": "Clients of the client-credentials grant (scope admin).",
  Events: "Every change the API made, recorded with it (kept 30 days; scope events:read).",
  Webhooks: "Endpoints that receive events as signed POSTs (Standard Webhooks; scope webhooks:write).",
  "Learner sessions":
    "Short-lived tokens (qz_lt_…) that take one quiz as one user from a learner's browser (scope learners:write to mint them).",
  "Report sessions": "Short-lived tokens (qz_vt_…) that read the reports of the quizzes they name, for a teacher's browser.",
  LTI: "LTI 1.3: platforms, launches, the tool's keys and grades sent back to the LMS (Assignment and Grade Services).",
  OAuth: "The OAuth 2.0 authorization server (RFC 6749, 7009, 7662, 8414).",
  Problems: "The error catalogue: what each problem code means and what to do.",
  Service: "Liveness, and what this service is.",
};

/** The tags the document's operations name, described, in the order of TAG_DESCRIPTIONS (others last). */
function tagsOf(paths: Record<string, Record<string, { tags?: string[] } | undefined>>) {
  const used = new Set(Object.values(paths).flatMap((item) => METHODS.flatMap((m) => item[m]?.tags ?? [])));
  const order = Object.keys(TAG_DESCRIPTIONS);
  const rank = (tag: string) => (order.includes(tag) ? order.indexOf(tag) : order.length);
  return [...used].sort((a, b) => rank(a) - rank(b)).map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? "" }));
}

const problem = (description: string): Response => ({
  description,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});
const oauthProblem = (description: string): Response => ({
  description,
  content: {
    "application/json": {
      schema: { $ref: "#/components/schemas/OAuthError" },
      example: { error: "server_error", error_description: "An unexpected error occurred; quote the request id." },
    },
  },
});

/**
 * Answers that middleware can give on any operation, whatever the route declares: the guard of
 * /v1 (conflicting credentials), the body guard (413/415, whenever a body is sent), the
 * idempotency middleware (409 on POST), and the one error handler (500).
 */
const CONFLICTING_CREDENTIALS =
  "X-API-Key and Authorization carry different credentials (conflicting_credentials); on a POST also a malformed Idempotency-Key (invalid_idempotency_key).";
const IDEMPOTENCY_CONFLICT =
  "The Idempotency-Key was used with another request (idempotency_key_reused) or that request is still running (idempotency_key_in_progress).";
const BODY_TOO_LARGE = "The body is larger than 1 MiB.";
const NOT_JSON = "A body was sent that is not application/json.";
const INTERNAL = "An unexpected error; the answer names only the request id (internal_error), the log has the rest.";

/** Which environment the document describes (OWASP API9 asks servers to say). */
const environment = (origin: string) =>
  /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin) ? "local" : "production";

/** OWASP API4: integers say their width; int32 when the bounds fit in it. */
function addIntegerFormats(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) addIntegerFormats(item);
    return;
  }
  if (!node || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  const type = schema.type;
  if ((type === "integer" || (Array.isArray(type) && type.includes("integer"))) && schema.format === undefined) {
    const fits = (v: unknown) => typeof v === "number" && Math.abs(v) <= 2 ** 31 - 1;
    schema.format =
      fits(schema.minimum ?? schema.exclusiveMinimum) && fits(schema.maximum ?? schema.exclusiveMaximum) ? "int32" : "int64";
  }
  for (const value of Object.values(schema)) addIntegerFormats(value);
}

const RESOURCE_NAMES: Record<string, string> = {
  quizzes: "quiz",
  users: "user",
  submissions: "submission",
  "api-keys": "API key",
  "oauth-clients": "OAuth client",
  events: "event",
  "webhook-endpoints": "webhook endpoint",
  jobs: "job",
  "learner-sessions": "learner session",
  "report-sessions": "report session",
  quiz: "quiz",
  user: "user",
};

/** A path id without a description of its own is described by the collection it follows. */
function describePathParameters(path: string, parameters: unknown[] = []): void {
  const segments = path.split("/");
  for (const parameter of parameters as { in?: string; name?: string; description?: string }[]) {
    if (parameter.in !== "path" || parameter.description || !parameter.name) continue;
    const at = segments.indexOf(`{${parameter.name}}`);
    const resource = parameter.name === "question_id" ? "question" : RESOURCE_NAMES[segments[at - 1] ?? ""];
    if (resource) parameter.description = `The ${resource}'s id; one of the wrong prefix or shape → 404.`;
  }
}

/** Each problem answer's example is one of its own status, with a code the operation can answer. */
function addProblemExample(status: string, response: Response, operationDescription = ""): void {
  const media = (response.content as Record<string, { example?: unknown }> | undefined)?.["application/problem+json"];
  const code = exampleCode(Number(status), `${response.description ?? ""} ${operationDescription}`);
  if (media && code) response.content = { "application/problem+json": { ...media, example: problemExample(code) } };
}

/**
 * The generated document, plus what middleware adds to every operation and zod routes cannot
 * declare one by one: the Idempotency-Key parameter of POSTs under /v1, the answers of the
 * middleware (see above), and the rate-limit and request-id headers of every answer.
 */
export function openApiDocument(app: Pick<OpenAPIHono, "getOpenAPI31Document">, origin: string, version: string) {
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Quiz API",
      version,
      description: DESCRIPTION,
      license: { name: "Apache-2.0", url: "https://www.apache.org/licenses/LICENSE-2.0" },
      // No public repository or mailbox yet: the contact is this deployment's documentation.
      contact: { name: "Quiz API", url: `${origin}/docs` },
    },
    // x-internal: an API for other applications, not only for this organisation's own (OWASP API9).
    servers: [{ url: origin, description: `This deployment (${environment(origin)}).`, "x-internal": false } as { url: string }],
  });
  document.tags = tagsOf(document.paths as Parameters<typeof tagsOf>[0]);
  document.components ??= {};
  document.components.parameters = {
    ...document.components.parameters,
    IdempotencyKey: {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: `1–255 visible ASCII characters. The same key with the same request within ${IDEMPOTENCY_TTL_SECONDS / 3600} h replays the first answer (Idempotent-Replayed: true); with a different request → 409 idempotency_key_reused; while the first is running elsewhere → 409 idempotency_key_in_progress.`,
      schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
    },
  };
  document.components.headers = {
    ...document.components.headers,
    "X-Request-Id": {
      description: "The request's id (the caller's, if sane), also in problem bodies.",
      schema: { type: "string", maxLength: 255 },
    },
    RateLimit: {
      description: 'Remaining requests and seconds to reset: "default";r=599;t=42.',
      schema: { type: "string", maxLength: 100 },
    },
    "RateLimit-Policy": { description: 'The policy: "default";q=600;w=60.', schema: { type: "string", maxLength: 100 } },
    "Retry-After": { description: "Seconds to wait (429 only).", schema: { type: "integer", minimum: 0, maximum: 86_400 } },
    "X-D1-Bookmark": {
      description: "The D1 session's latest bookmark: send it back as X-D1-Bookmark to read every write it covers.",
      schema: { type: "string", pattern: "^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$", maxLength: 59 },
    },
  };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const v1 = path.startsWith("/v1/");
      const oauth = path.startsWith("/oauth/");
      describePathParameters(path, operation.parameters);
      operation.responses ??= {};
      const responses = operation.responses;
      const ensure = (status: string, response: Response) => {
        responses[status] ??= response;
      };
      if (v1) {
        ensure("400", problem(CONFLICTING_CREDENTIALS));
        if (method !== "get") {
          ensure("413", problem(BODY_TOO_LARGE));
          ensure("415", problem(NOT_JSON));
        }
        if (method === "post") {
          operation.parameters = [...(operation.parameters ?? []), { $ref: "#/components/parameters/IdempotencyKey" }];
          const conflict = responses["409"];
          if (conflict) conflict.description = `${conflict.description} Or: ${IDEMPOTENCY_CONFLICT}`;
          else ensure("409", problem(IDEMPOTENCY_CONFLICT));
        }
      }
      ensure("500", oauth ? oauthProblem(`server_error: ${INTERNAL}`) : problem(INTERNAL));
      // The OAuth endpoints are rate limited per client IP, and say so in the same headers as /v1.
      const limited = v1 || oauth;
      for (const [status, response] of Object.entries(responses)) {
        addProblemExample(status, response, operation.description);
        response.headers = {
          ...response.headers,
          "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
          ...(v1 ? { "X-D1-Bookmark": { $ref: "#/components/headers/X-D1-Bookmark" } } : {}),
          ...(limited
            ? {
                RateLimit: { $ref: "#/components/headers/RateLimit" },
                "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
              }
            : {}),
          ...(status === "429" ? { "Retry-After": { $ref: "#/components/headers/Retry-After" } } : {}),
        };
      }
    }
  }
  addIntegerFormats(document);
  return document;
}
