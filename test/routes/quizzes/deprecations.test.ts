import { describe, expect, it } from "vitest";
import { call, callRaw } from "../../support/call";

/**
 * No breaking change under /v1 without notice (docs/compatibility.md): what is deprecated is
 * marked so in the document and answered with Deprecation (RFC 9745) and Sunset (RFC 8594) at
 * least 90 days apart whenever a request uses it; a request that does not use it gets neither.
 * The one deprecated input today: settings.show_correct_answers as a boolean.
 */

const DAY_MS = 86_400_000;

function expectNotice(res: Awaited<ReturnType<typeof call>>) {
  const deprecation = res.headers.get("deprecation");
  const sunset = res.headers.get("sunset");
  expect(deprecation, res.text).toMatch(/^@\d+$/);
  expect(sunset).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
  const deprecatedAt = Number(deprecation!.slice(1)) * 1000;
  expect(Date.parse(sunset!) - deprecatedAt).toBeGreaterThanOrEqual(90 * DAY_MS);
  expect(res.headers.get("link")).toMatch(/rel="deprecation"/);
}

describe("settings.show_correct_answers as a boolean (deprecated)", () => {
  it("still works, and the answer carries Deprecation and Sunset: POST and PATCH", async () => {
    const created = await call("/v1/quizzes", { body: { title: "Old client", settings: { show_correct_answers: false } } });
    expect(created.status, created.text).toBe(201);
    expect(created.json.settings.show_correct_answers).toBe("never");
    expectNotice(created);
    const patched = await call(`/v1/quizzes/${created.json.id}`, {
      method: "PATCH",
      body: { settings: { show_correct_answers: true } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.settings.show_correct_answers).toBe("always");
    expectNotice(patched);
  });

  it("a request that does not use it gets no notice", async () => {
    const created = await call("/v1/quizzes", { body: { title: "New client", settings: { show_correct_answers: "never" } } });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get("deprecation")).toBeNull();
    expect(created.headers.get("sunset")).toBeNull();
  });

  it("is marked deprecated in the document, and the operations declare both headers", async () => {
    // The parts of the document read here.
    const doc = (await callRaw("/openapi.json", { auth: false })).json as {
      components: { schemas: Record<string, { properties?: Record<string, { anyOf?: unknown[] }> }> };
      paths: Record<string, Record<string, { responses: Record<string, { headers: Record<string, unknown> }> }>>;
    };
    // Every schema that takes show_correct_answers offers the boolean form only as deprecated.
    const forms = Object.values(doc.components.schemas)
      .map((schema) => schema.properties?.show_correct_answers?.anyOf)
      .filter((anyOf) => anyOf !== undefined);
    expect(forms.length).toBeGreaterThan(0);
    for (const anyOf of forms) expect(anyOf).toContainEqual(expect.objectContaining({ type: "boolean", deprecated: true }));
    for (const [path, method, status] of [
      ["/v1/quizzes", "post", "201"],
      ["/v1/quizzes/{id}", "patch", "200"],
    ] as const)
      expect(Object.keys(doc.paths[path]![method]!.responses[status]!.headers), `${method} ${path}`).toEqual(
        expect.arrayContaining(["Deprecation", "Sunset"]),
      );
  });
});
