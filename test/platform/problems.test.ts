import { describe, expect, it } from "vitest";
import { PROBLEM_CODES, PROBLEMS } from "../../src/lib/problems";
import { call, callRaw, expectProblem, type Schema } from "../support/call";

const METHODS = ["get", "put", "post", "patch", "delete"] as const;

/** The parts of the document read here. */
interface Document {
  paths: Record<
    string,
    Partial<
      Record<
        (typeof METHODS)[number],
        { responses?: Record<string, { content?: Record<string, { example: Schema<"Problem"> }> }> }
      >
    >
  >;
  components: { schemas: { Problem: { properties: { code: { enum: string[] } } } } };
}

/** Every problem example of the document, with the status it is listed under. */
async function problemExamples() {
  const doc = (await callRaw("/openapi.json")).json as Document;
  const out: { where: string; status: string; example: Schema<"Problem"> }[] = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of METHODS)
      for (const [status, response] of Object.entries(item[method]?.responses ?? {})) {
        const media = response.content?.["application/problem+json"];
        if (media) out.push({ where: `${method.toUpperCase()} ${path} ${status}`, status, example: media.example });
      }
  return { doc, examples: out };
}

describe("the error catalogue", () => {
  it("is the enum of the Problem schema's code", async () => {
    const { doc } = await problemExamples();
    expect(doc.components.schemas.Problem.properties.code.enum).toEqual(PROBLEM_CODES);
  });

  it("has an example of its own status for every error response", async () => {
    const { examples } = await problemExamples();
    expect(examples.length).toBeGreaterThan(100);
    const wrong = examples.filter((e) => e.example?.status !== Number(e.status)).map((e) => e.where);
    expect(wrong, `examples of another status: ${wrong.join(", ")}`).toEqual([]);
    for (const { where, example } of examples) {
      expect(PROBLEM_CODES, where).toContain(example.code);
      expect(example.type, where).toBe(`/problems/${example.code}`);
    }
  });

  it("serves a page for every code and every example's type", async () => {
    const { examples } = await problemExamples();
    const types = new Set([...PROBLEM_CODES.map((c) => `/problems/${c}`), ...examples.map((e) => e.example.type)]);
    for (const type of types) {
      const res = await callRaw(type, { auth: false });
      expect(res.status, `${type}: ${res.text}`).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/markdown/);
      const code = type.slice("/problems/".length) as keyof typeof PROBLEMS;
      expect(res.text).toContain(code);
      expect(res.text).toContain(PROBLEMS[code].todo);
    }
  });

  it("answers 404 for an unknown code", async () => {
    expectProblem(await call("/problems/no_such_code", { auth: false }), 404, "not_found");
    expectProblem(await call("/problems/constructor", { auth: false }), 404, "not_found");
  });

  it("gives problem bodies the type of their code", async () => {
    const body = expectProblem(await call("/v1/quizzes", { auth: false }), 401, "unauthorized");
    expect(body.type).toBe("/problems/unauthorized");
    expect((await callRaw(body.type, { auth: false })).status).toBe(200);
  });
});
