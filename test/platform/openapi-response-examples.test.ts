import { describe, expect, it } from "vitest";
import { callRaw } from "../support/call";
import { audit, operations } from "../support/document-examples";

/**
 * docs/api.md: every response of /openapi.json has an example, and a true one. The rules (what a
 * body is, what counts as its example, what a generated placeholder is) are in
 * test/support/document-examples.ts; `npx tsx scripts/openapi-examples.ts --list` prints the same
 * findings for the document as it is. Error examples' status and code: test/platform/problems.test.ts;
 * request examples sent to the API: test/platform/openapi-examples.test.ts and test/lti/examples.test.ts.
 */
describe("the response examples of /openapi.json", async () => {
  const doc = (await callRaw("/openapi.json")).json;
  const result = audit(doc);

  it("cover every response with a body", () => {
    expect(result.bodies.length).toBeGreaterThan(500);
    expect(result.withoutExample.map((b) => b.where)).toEqual([]);
  });

  it("hold no generated placeholder", () => {
    expect(result.placeholder.map((p) => `${p.body.where}: ${p.why.join("; ")}`)).toEqual([]);
  });

  it("are valid for their schemas, with ids and timestamps of the documented shape", () => {
    expect(result.invalid.map((p) => `${p.body.where}: ${p.why.join("; ")}`)).toEqual([]);
  });

  it("agree with the request example of the same operation", () => {
    expect(result.disagreeing.map((d) => `${d.where}: ${d.why.join("; ")}`)).toEqual([]);
  });

  it("show each page of a list with its next_cursor", () => {
    const pages = result.bodies.filter((b) => b.status === "200" && b.example && typeof b.example === "object");
    const lists = pages.filter((b) => "next_cursor" in (b.example as object));
    expect(lists.length).toBeGreaterThan(15);
    const last = lists.filter((b) => typeof (b.example as { next_cursor: unknown }).next_cursor !== "string");
    expect(last.map((b) => b.where)).toEqual([]);
  });

  // A list's example cursor is one the list takes back: 200, or 404 for the example's path id (no such
  // resource here), never 400 invalid cursor.
  const lists = operations(doc).filter(
    ({ method, operation }) =>
      method === "get" && operation.parameters?.some((p: any) => p.in === "query" && p.name === "cursor"),
  );
  it.each(lists.map(({ path, operation }) => ({ path, operation })))(
    "GET $path takes its example's next_cursor",
    async ({ path, operation }) => {
      const example = result.bodies.find((b) => b.method === "get" && b.path === path && b.status === "200")?.example as {
        next_cursor: string;
      };
      const params = operation.parameters.filter((p: any) => p.in === "path");
      const url = path.replace(/\{([^}]+)\}/g, (_: string, name: string) => {
        const parameter = params.find((p: any) => p.name === name);
        return encodeURIComponent(String(parameter?.schema?.example ?? parameter?.example));
      });
      // A path built from the document's templates: not a literal the typed call can check.
      const res = await callRaw(`${url}?cursor=${encodeURIComponent(example.next_cursor)}`);
      expect([200, 404], `${url}: ${res.text}`).toContain(res.status);
      if (res.status === 404) expect((res.json as { code: string }).code).toBe("not_found");
    },
  );
});
