import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { type Answer, callRaw } from "../support/call";

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** Served by the app but not operations of the API itself. */
const NOT_DOCUMENTED = new Set([
  "GET /openapi.json",
  "GET /docs",
  // The LTI tool's pages: HTML that an LMS and a browser exchange, not API operations (docs/lti.md).
  "GET /lti/login",
  "POST /lti/login",
  "POST /lti/launch",
  "POST /lti/launch/continue",
  "GET /lti/deep-linking",
  "POST /lti/deep-linking",
  "GET /lti/auto-submit.js",
  "GET /lti/tool.css",
]);

/** The parts of the document read here. */
interface Parameter {
  in: string;
  name: string;
  description?: string;
}
interface Operation {
  parameters?: Parameter[];
  tags?: string[];
  security?: unknown[];
  requestBody?: { content?: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}
type PathItem = Record<string, Operation> & { parameters?: Parameter[] };
interface SchemaObject {
  additionalProperties?: unknown;
  required?: string[];
  properties: { title: unknown; questions: { maxItems: number } };
}
interface Document {
  openapi: string;
  info: { version: string; license?: unknown; contact?: unknown };
  paths: Record<string, PathItem>;
  tags: { name: string; description?: string }[];
  components: { schemas: Record<"QuizCreate" | "UserCreate" | "Problem", SchemaObject> };
}

async function getDocument() {
  const res = (await callRaw("/openapi.json")) as Answer<Document>;
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** `METHOD /path/{param}` for every operation of the document. */
function documentedOperations(doc: Document): Set<string> {
  const out = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const method of Object.keys(item)) if (HTTP_METHODS.includes(method)) out.add(`${method.toUpperCase()} ${path}`);
  return out;
}

/** `METHOD /path/{param}` for every route the app registers (middleware excluded). */
function servedRoutes(): Set<string> {
  const out = new Set<string>();
  for (const { method, path } of app.routes) {
    if (method === "ALL" || path.includes("*")) continue;
    out.add(`${method.toUpperCase()} ${path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}")}`);
  }
  return out;
}

/** A concrete URL for a templated path: any value will do to reach the route. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, "x");

describe("GET /openapi.json", () => {
  it("is an OpenAPI 3.1 document", async () => {
    const res = (await callRaw("/openapi.json")) as Answer<Document>;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json.openapi).toMatch(/^3\.1\.\d+$/);
    expect(res.json.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(Object.keys(res.json.paths).length).toBeGreaterThan(0);
  });

  it("names its license, contact and the package's version, and describes every path id", async () => {
    const doc = await getDocument();
    expect(doc.info.license).toMatchObject({ name: "Apache-2.0", url: expect.stringMatching(/^https:/) });
    expect(doc.info.contact).toMatchObject({ name: expect.any(String), url: expect.any(String) });
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    for (const [path, item] of Object.entries(doc.paths))
      for (const method of HTTP_METHODS)
        for (const p of item[method]?.parameters ?? [])
          if (p.in === "path") expect(p.description, `${method} ${path} {${p.name}}`).toEqual(expect.any(String));
  });

  it("lists every tag an operation names, each described, Jobs and Regrade included", async () => {
    const doc = await getDocument();
    const named = new Set<string>();
    for (const item of Object.values(doc.paths))
      for (const method of HTTP_METHODS) for (const tag of item[method]?.tags ?? []) named.add(tag);
    const listed = doc.tags.map((t: { name: string }) => t.name);
    expect(new Set(listed)).toEqual(named);
    expect(listed).toEqual(expect.arrayContaining(["Jobs", "Regrade"]));
    for (const tag of doc.tags) expect(tag.description, tag.name).toMatch(/\S/);
  });

  it("declares the public operations public", async () => {
    const doc = await getDocument();
    for (const path of ["/health", "/.well-known/oauth-authorization-server", "/.well-known/jwks.json", "/problems/{code}"])
      expect(doc.paths[path]!.get!.security, path).toEqual([]);
  });

  it("is served without credentials", async () => {
    const res = await callRaw("/openapi.json", { auth: false });
    expect(res.status).toBe(200);
  });

  it("documents every route the app serves", async () => {
    const documented = documentedOperations(await getDocument());
    const undocumented: string[] = [];
    for (const route of servedRoutes()) {
      if (documented.has(route) || NOT_DOCUMENTED.has(route)) continue;
      // A route registered only to answer 405 (e.g. GET /oauth/token) is a guard, not an operation.
      const [method, path] = route.split(" ") as [string, string];
      const res = await callRaw(concrete(path), { method });
      if (res.status === 405) continue;
      undocumented.push(route);
    }
    expect(undocumented, `not in the document: ${undocumented.join(", ")}`).toEqual([]);
  });

  it("documents no operation the app does not serve", async () => {
    const served = servedRoutes();
    const phantom = [...documentedOperations(await getDocument())].filter((op) => !served.has(op));
    expect(phantom).toEqual([]);
  });

  it("documents the quiz, question and user endpoints of the contract", async () => {
    const documented = documentedOperations(await getDocument());
    for (const op of [
      "GET /v1/quizzes",
      "POST /v1/quizzes",
      "GET /v1/quizzes/{id}",
      "PATCH /v1/quizzes/{id}",
      "DELETE /v1/quizzes/{id}",
      "GET /v1/quizzes/{id}/questions",
      "POST /v1/quizzes/{id}/questions",
      "GET /v1/quizzes/{id}/questions/{question_id}",
      "PATCH /v1/quizzes/{id}/questions/{question_id}",
      "DELETE /v1/quizzes/{id}/questions/{question_id}",
      "GET /v1/users",
      "POST /v1/users",
      "GET /v1/users/{id}",
      "PATCH /v1/users/{id}",
      "DELETE /v1/users/{id}",
    ])
      expect(documented, op).toContain(op);
  });

  const PUBLIC_DOCUMENTS = ["/health", "/.well-known/oauth-authorization-server", "/.well-known/jwks.json"];

  it("every operation documents at least one 4xx error response (problem+json; RFC 6749 JSON on /oauth/*)", async () => {
    const doc = await getDocument();
    const lacking: string[] = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries<Operation>(item)) {
        if (!HTTP_METHODS.includes(method)) continue;
        // Public documents take no input and need no credential: they have no 4xx to document.
        if (PUBLIC_DOCUMENTS.includes(path)) continue;
        // The contract: errors on /oauth/* are RFC 6749 §5.2 JSON; every other error is RFC 9457.
        const mediaType = path.startsWith("/oauth/") ? "application/json" : "application/problem+json";
        const errors = Object.entries(op.responses ?? {}).filter(
          ([status, response]) => /^4\d\d$/.test(status) && response.content?.[mediaType],
        );
        if (errors.length === 0) lacking.push(`${method.toUpperCase()} ${path}`);
      }
    expect(lacking, `lacking a 4xx error response: ${lacking.join(", ")}`).toEqual([]);
  });

  it("every /v1 operation documents 401 (but a public one: none), and every body-taking one 400, 413 and 415", async () => {
    const doc = await getDocument();
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!path.startsWith("/v1/")) continue;
      for (const [method, op] of Object.entries<Operation>(item)) {
        if (!HTTP_METHODS.includes(method)) continue;
        const statuses = Object.keys(op.responses);
        // An asset's bytes need no credential (CONTRACT §19): never a 401.
        if (Array.isArray(op.security) && op.security.length === 0) {
          expect(statuses, `${method} ${path}`).not.toContain("401");
          continue;
        }
        expect(statuses, `${method} ${path}`).toContain("401");
        if (op.requestBody?.content?.["application/json"])
          expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(["400", "413", "415"]));
      }
    }
  });

  it("every path parameter is declared", async () => {
    const doc = await getDocument();
    for (const [path, item] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries<Operation>(item)) {
        if (!HTTP_METHODS.includes(method)) continue;
        const declared = [...(item.parameters ?? []), ...(op.parameters ?? [])].filter((p) => p.in === "path").map((p) => p.name);
        expect(declared.sort(), `${method} ${path}`).toEqual([...names].sort());
      }
    }
  });

  it("comes from the validating schemas: strict objects and their limits", async () => {
    const { components } = await getDocument();
    const quizCreate = components.schemas.QuizCreate;
    expect(quizCreate.additionalProperties).toBe(false);
    expect(quizCreate.required).toContain("title");
    expect(quizCreate.properties.title).toMatchObject({ type: "string", maxLength: 200 });
    expect(quizCreate.properties.questions.maxItems).toBe(200);
    expect(components.schemas.UserCreate.additionalProperties).toBe(false);
    expect(components.schemas.Problem.required).toEqual(
      expect.arrayContaining(["type", "title", "status", "detail", "code", "request_id"]),
    );
  });
});
