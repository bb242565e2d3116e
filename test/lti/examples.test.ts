import { describe, expect, it } from "vitest";
import { callRaw } from "../support/call";
import { newQuiz } from "./learners";
import { newPlatform } from "./platform";

// The request examples of the LTI operations in /openapi.json are requests the API accepts: each
// is sent with its ids replaced by fixtures' and its id_token by one the loopback platform signs.
// (test/openapi-examples.test.ts sends every other operation's.)

const METHODS = ["get", "put", "post", "patch", "delete"] as const;

/** The parts of the document read here. */
interface SchemaObject {
  $ref?: string;
  example?: unknown;
}
interface Operation {
  parameters?: { name: string; example?: unknown; schema?: SchemaObject }[];
  requestBody?: { content?: Record<string, { example?: unknown; schema?: SchemaObject }> };
}
interface Document {
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components: { schemas: Record<string, SchemaObject> };
}

describe("the LTI request examples of /openapi.json", async () => {
  const doc = (await callRaw("/openapi.json")).json as Document;
  const resolve = (schema: SchemaObject | undefined) =>
    schema?.$ref ? doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")] : schema;
  const examples = Object.entries(doc.paths)
    .filter(([path]) => path.startsWith("/v1/lti/"))
    .flatMap(([path, item]) =>
      METHODS.flatMap((method) => {
        const content = item[method]?.requestBody?.content?.["application/json"];
        return content
          ? [{ method, path, item: item[method]!, example: content.example ?? resolve(content.schema)?.example }]
          : [];
      }),
    );

  it("cover every LTI operation with a JSON body", () => {
    expect(examples.map((e) => `${e.method} ${e.path}`).sort()).toEqual([
      "patch /v1/lti/platforms/{id}",
      "post /v1/lti/launches",
      "post /v1/lti/platforms",
      "put /v1/lti/links/{resource_link_id}",
    ]);
    for (const e of examples) expect(e.example, `${e.method} ${e.path}`).toBeDefined();
  });

  it.each(examples)("$method $path accepts its example", async ({ method, path, item, example }) => {
    const platform = await newPlatform();
    const quiz = await newQuiz();
    const pathExample = (name: string) =>
      item.parameters?.find((p) => p.name === name)?.schema?.example ?? item.parameters?.find((p) => p.name === name)?.example;
    const url = path.replace(/\{([^}]+)\}/g, (_: string, name: string) =>
      name === "id" ? platform.id : encodeURIComponent(String(pathExample(name) ?? "link-1")),
    );
    const body = JSON.parse(
      JSON.stringify(example)
        .replace(/"ltp_[0-9a-z]{26}"/g, `"${platform.id}"`)
        .replace(/"quiz_[0-9a-z]{26}"/g, `"${quiz}"`),
    );
    if (path === "/v1/lti/launches") body.id_token = await platform.sign(platform.claims());
    const res = await callRaw(url, { method: method.toUpperCase(), body });
    expect(res.status, `${method} ${url}: ${res.text}`).toBeGreaterThanOrEqual(200);
    expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
  });
});
