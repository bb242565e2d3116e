import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type AnswerOf, call, callRaw, type KnownPath, seedApiKey } from "../support/call";

/**
 * Every request example of the document is a request the API accepts: each operation with a
 * request-body example is sent, with its path ids and the ids in its body replaced by those of
 * fixtures made for it (fresh ones per operation, so that order does not matter).
 */

const METHODS = ["get", "put", "post", "patch", "delete"] as const;
/** An id of the examples: a prefix and a ULID. */
const EXAMPLE_ID = /^(quiz|qst|user|sub|key|cli|evt|whe)_[0-9a-z]{26}$/;

interface Fixtures {
  quiz: string;
  qst: string;
  user: string;
  sub: string;
  key: string;
  cli: string;
  evt: string;
  whe: string;
  clientSecret: string;
  accessToken: string;
  /** A graded submission whose essay needs review, and the essay: for the review's path. */
  essay: { sub: string; qst: string };
}

let serial = 0;

/** Where the fixtures' and the examples' webhook endpoints point: the loopback receiver, which answers 200. */
const RECEIVER_HOOK = `${env.WEBHOOK_RECEIVER_URL}/hook/ok-examples`;
/** The documentation's example receiver, which resolves nowhere. */
const EXAMPLE_HOOK = /^https:\/\/hooks\.example\.com\//;

async function created<P extends KnownPath>(path: P, body: unknown): Promise<AnswerOf<P, { body: unknown }>["json"]> {
  const res = await call(path, { body });
  expect(res.status, `${path}: ${res.text}`).toBe(201);
  return res.json;
}

async function makeFixtures(): Promise<Fixtures> {
  const n = ++serial;
  const quiz = await created("/v1/quizzes", {
    title: `Fixture quiz ${n}`,
    questions: [
      {
        type: "single_choice",
        prompt: "Pick a",
        options: [
          { id: "a", text: "A" },
          { id: "b", text: "B" },
        ],
        correct_option_id: "a",
      },
    ],
  });
  const questions = await call(`/v1/quizzes/${quiz.id}/questions`);
  const user = await created("/v1/users", { name: `Fixture ${n}`, email: `fixture-${n}@example.org` });
  const submission = await created(`/v1/quizzes/${quiz.id}/submissions`, { user_id: user.id });
  const key = await seedApiKey(["quizzes:read"], { name: `fixture ${n}` });
  const client = await created("/v1/oauth-clients", { name: `fixture ${n}`, scopes: ["quizzes:read"] });
  const token = await call("/oauth/token", {
    auth: false,
    headers: { authorization: basic(client.client_id, client.client_secret) },
    body: { grant_type: "client_credentials" },
  });
  expect(token.status, token.text).toBe(200);
  const endpoint = await created("/v1/webhook-endpoints", { url: RECEIVER_HOOK, events: ["*"] });
  const essayQuiz = await created("/v1/quizzes", {
    title: `Fixture essay ${n}`,
    questions: [{ type: "essay", prompt: "Why?", points: 10 }],
  });
  const essaySub = await created(`/v1/quizzes/${essayQuiz.id}/submissions`, {
    user_id: user.id,
    answers: [{ question_id: essayQuiz.question_ids[0], response: "Because." }],
  });
  expect((await call(`/v1/submissions/${essaySub.id}/grade`, { method: "POST" })).status).toBe(200);
  const events = await call("/v1/events?limit=1");
  return {
    quiz: quiz.id,
    qst: questions.json.questions[0]!.id,
    user: user.id,
    sub: submission.id,
    key: key.id,
    cli: client.client_id,
    evt: events.json.events[0]!.id,
    whe: endpoint.id,
    clientSecret: client.client_secret,
    accessToken: token.json.access_token,
    essay: { sub: essaySub.id, qst: essayQuiz.question_ids[0]! },
  };
}

const basic = (id: string, secret: string) => `Basic ${btoa(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`;

/** The fixture a path parameter names, by the collection it follows. */
function pathValue(path: string, param: string, f: Fixtures): string {
  if (path.includes("/reviews/")) return param === "question_id" ? f.essay.qst : f.essay.sub;
  if (param === "question_id") return f.qst;
  if (param === "user_id") return f.user;
  const collection = path.split("/")[2];
  const byCollection: Record<string, string> = {
    quizzes: f.quiz,
    users: f.user,
    submissions: f.sub,
    "api-keys": f.key,
    "oauth-clients": f.cli,
    events: f.evt,
    "webhook-endpoints": f.whe,
  };
  const value = collection && byCollection[collection];
  if (!value) throw new Error(`no fixture for {${param}} of ${path}`);
  return value;
}

/** The example with each example id and token replaced by the fixture of its kind. */
function substitute(value: unknown, f: Fixtures): unknown {
  if (Array.isArray(value)) return value.map((v) => substitute(v, f));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, f)]));
  if (typeof value === "string") {
    const id = EXAMPLE_ID.exec(value);
    if (id) return f[id[1] as "quiz" | "qst" | "user" | "sub" | "key" | "cli" | "evt" | "whe"];
    if (value.startsWith("qz_at_")) return f.accessToken;
    if (EXAMPLE_HOOK.test(value)) return RECEIVER_HOOK;
  }
  return value;
}

interface Example {
  method: string;
  path: string;
  example: unknown;
}

/** The parts of the document read here. */
interface SchemaObject {
  $ref?: string;
  example?: unknown;
}
interface Document {
  paths: Record<
    string,
    Partial<
      Record<
        (typeof METHODS)[number],
        { requestBody?: { content?: Record<string, { example?: unknown; schema?: SchemaObject }> } }
      >
    >
  >;
  components: { schemas: Record<string, SchemaObject> };
}

function requestExamples(doc: Document): Example[] {
  const resolve = (schema: SchemaObject | undefined) =>
    schema?.$ref ? doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")] : schema;
  const out: Example[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const content = item[method]?.requestBody?.content?.["application/json"];
      if (!content) continue;
      const example = content.example ?? resolve(content.schema)?.example;
      out.push({ method, path, example });
    }
  }
  return out;
}

describe("the request examples of /openapi.json", async () => {
  const doc = (await callRaw("/openapi.json")).json as Document;
  // LTI's need the loopback platform and a freshly signed token: test/lti/examples.test.ts sends them.
  const examples = requestExamples(doc).filter((e) => !e.path.startsWith("/v1/lti/"));

  it("cover every operation with a JSON body", () => {
    expect(examples.length).toBeGreaterThan(10);
    const missing = examples.filter((e) => e.example === undefined).map((e) => `${e.method.toUpperCase()} ${e.path}`);
    expect(missing, `no request example: ${missing.join(", ")}`).toEqual([]);
  });

  it.each(examples.filter((e) => e.example !== undefined))(
    "$method $path accepts its example",
    async ({ method, path, example }) => {
      const f = await makeFixtures();
      const url = path.replace(/\{([^}]+)\}/g, (_, param: string) => pathValue(path, param, f));
      const oauth = path.startsWith("/oauth/");
      const res = await callRaw(url, {
        method: method.toUpperCase(),
        body: substitute(example, f),
        ...(oauth ? { auth: false, headers: { authorization: basic(f.cli, f.clientSecret) } } : {}),
      });
      expect(res.status, `${method.toUpperCase()} ${url}: ${res.text}`).toBeGreaterThanOrEqual(200);
      expect(res.status, `${method.toUpperCase()} ${url}: ${res.text}`).toBeLessThan(300);
    },
  );
});
