import { describe, expect, it } from "vitest";
import { call, callRaw, expectProblem } from "../support/call";

const ULID_LIKE = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

describe("problem details (RFC 9457)", () => {
  it("every error is application/problem+json with type, title, status, detail, code and request_id", async () => {
    const res = await call("/v1/quizzes", { body: {} });
    const problem = expectProblem(res, 400, "validation_failed");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(problem.status).toBe(400);
    expect(problem.title).toBe("Bad Request");
    expect(problem.type).toBe("/problems/validation_failed");
    expect(typeof problem.detail).toBe("string");
    expect(problem.detail.length).toBeGreaterThan(0);
    expect(problem.request_id).toBe(res.headers.get("x-request-id"));
    expect(problem.errors).toEqual(expect.arrayContaining([{ path: "title", message: expect.any(String) }]));
  });

  it("a 404 is a problem body too", async () => {
    const res = await call("/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4r");
    const problem = expectProblem(res, 404, "not_found");
    expect(problem.status).toBe(404);
    expect(problem.title).toBe("Not Found");
    expect(problem).not.toHaveProperty("errors");
  });

  it("the detail of a validation error never leaks SQL or a stack", async () => {
    const res = await call("/v1/quizzes", { body: { title: 42 } });
    const problem = expectProblem(res, 400, "validation_failed");
    expect(res.text).not.toMatch(/SQLITE|D1_|at .*\.ts:\d+|stack/i);
    expect(problem.errors?.[0]?.path).toBe("title");
  });
});

describe("security headers", () => {
  it("every answer carries the ones a JSON API needs, and none of the legacy browser headers", async () => {
    for (const res of [await call("/v1/quizzes?limit=1"), await call("/v1/quizzes/quiz_missing"), await call("/health")]) {
      expect(res.headers.get("strict-transport-security")).toMatch(/^max-age=\d+/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
      for (const legacy of [
        "x-xss-protection",
        "x-download-options",
        "x-dns-prefetch-control",
        "x-permitted-cross-domain-policies",
        "origin-agent-cluster",
      ])
        expect(res.headers.has(legacy), legacy).toBe(false);
    }
  });
});

describe("X-Request-Id", () => {
  it("is generated when absent", async () => {
    const a = await call("/health");
    const b = await call("/health");
    const idA = a.headers.get("x-request-id");
    expect(idA).toBeTruthy();
    expect(idA).not.toBe(b.headers.get("x-request-id"));
  });

  it("is echoed when sane, on success and in problem bodies", async () => {
    const ok = await call("/health", { headers: { "X-Request-Id": "req-abc_123=" } });
    expect(ok.headers.get("x-request-id")).toBe("req-abc_123=");
    const bad = await call("/v1/quizzes/nope", { headers: { "X-Request-Id": "trace-42" } });
    expect(bad.headers.get("x-request-id")).toBe("trace-42");
    expect(expectProblem(bad, 404).request_id).toBe("trace-42");
  });

  it("is replaced when insane (bad characters or too long)", async () => {
    for (const insane of ["evil value; with spaces", "<script>", "x".repeat(256)]) {
      const res = await call("/health", { headers: { "X-Request-Id": insane } });
      const id = res.headers.get("x-request-id");
      expect(id).toBeTruthy();
      expect(id).not.toBe(insane);
      expect(id).toMatch(/^[\w\-=]{1,255}$/);
    }
  });
});

describe("strict JSON input", () => {
  it("an unknown field → 400 naming it in errors[].path", async () => {
    const res = await call("/v1/quizzes", { body: { title: "Quiz", colour: "red" } });
    const problem = expectProblem(res, 400, "validation_failed");
    expect(problem.errors).toContainEqual({ path: "colour", message: expect.any(String) });
  });

  it("an unknown nested field is named with its full path", async () => {
    const res = await call("/v1/quizzes", { body: { title: "Quiz", settings: { max_attempts: 2, shuffle: true } } });
    const problem = expectProblem(res, 400, "validation_failed");
    expect(problem.errors).toContainEqual({ path: "settings.shuffle", message: expect.any(String) });
  });

  it("a missing required field → 400 naming it", async () => {
    const res = await call("/v1/users", { body: { email: "no-name@example.com" } });
    const problem = expectProblem(res, 400, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toEqual(["name"]);
  });

  it("a field of the wrong type → 400 naming it", async () => {
    const res = await call("/v1/quizzes", { body: { title: "Quiz", description: 12 } });
    const problem = expectProblem(res, 400, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toEqual(["description"]);
  });

  it("a 201-character title → 400; 200 characters is fine", async () => {
    const tooLong = await call("/v1/quizzes", { body: { title: "t".repeat(201) } });
    expect(expectProblem(tooLong, 400, "validation_failed").errors?.map((e) => e.path)).toEqual(["title"]);
    const max = await call("/v1/quizzes", { body: { title: "t".repeat(200) } });
    expect(max.status, max.text).toBe(201);
  });

  it("a body that is not an object → 400", async () => {
    for (const raw of ["[]", "null", '"title"', "42"]) {
      const res = await call("/v1/quizzes", { raw, headers: { "content-type": "application/json" } });
      expectProblem(res, 400);
    }
  });

  it("malformed JSON → 400 malformed_json", async () => {
    const res = await call("/v1/quizzes", { raw: '{"title": "x",', headers: { "content-type": "application/json" } });
    const problem = expectProblem(res, 400, "malformed_json");
    expect(problem.detail).not.toMatch(/Unexpected|position/);
  });

  it("malformed JSON on PATCH → 400 malformed_json", async () => {
    const quiz = await call("/v1/quizzes", { body: { title: "Patch me" } });
    const res = await call(`/v1/quizzes/${quiz.json.id}`, {
      method: "PATCH",
      raw: "{title: 'x'}",
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expectProblem(res, 400, "malformed_json");
  });

  it("application/json; charset=utf-8 is accepted", async () => {
    const res = await call("/v1/quizzes", {
      raw: JSON.stringify({ title: "Charset" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(res.status, res.text).toBe(201);
  });
});

describe("media type and size", () => {
  it("a text/plain body → 415 unsupported_media_type", async () => {
    const res = await call("/v1/quizzes", {
      method: "POST",
      raw: JSON.stringify({ title: "Plain" }),
      headers: { "content-type": "text/plain" },
    });
    expectProblem(res, 415, "unsupported_media_type");
  });

  it("a form body → 415", async () => {
    const res = await call("/v1/users", {
      method: "POST",
      raw: "name=a&email=a%40example.com",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectProblem(res, 415, "unsupported_media_type");
  });

  it("a body with no content type → 415", async () => {
    const res = await call("/v1/quizzes", { method: "POST", raw: new Blob([JSON.stringify({ title: "Untyped" })]) });
    expectProblem(res, 415, "unsupported_media_type");
  });

  it("a body over 1 MiB → 413 payload_too_large", async () => {
    const res = await call("/v1/quizzes", { body: { title: "Huge", description: "x".repeat(1024 * 1024 + 10) } });
    expectProblem(res, 413, "payload_too_large");
  });

  it("a body over 1 MiB without Content-Length (streamed) → 413", async () => {
    // Enqueued up front, so nothing is left pending when the server stops reading at 1 MiB.
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('{"title":"Huge","description":"'));
        for (let i = 0; i < 20; i++) controller.enqueue(encoder.encode("x".repeat(64 * 1024)));
        controller.enqueue(encoder.encode('"}'));
        controller.close();
      },
    });
    const res = await call("/v1/quizzes", { method: "POST", raw: stream, headers: { "content-type": "application/json" } });
    expectProblem(res, 413, "payload_too_large");
  });
});

describe("path ids and unknown routes", () => {
  it("a path id of the wrong shape → 404, never a 500", async () => {
    for (const path of [
      "/v1/quizzes/nope",
      "/v1/quizzes/user_01kamz3f7c9n0p8s6e5vwx2y4r",
      "/v1/quizzes/quiz_01KAMZ3F7C9N0P8S6E5VWX2Y4R",
      "/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4",
      "/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4r'%20OR%201=1--",
      "/v1/users/quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
      "/v1/users/nope",
      "/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4r/questions/nope",
    ]) {
      const res = await callRaw(path);
      expectProblem(res, 404, "not_found");
    }
  });

  it("a wrong-shape id → 404 on PATCH and DELETE as well", async () => {
    expectProblem(await call("/v1/quizzes/nope", { method: "PATCH", body: { title: "x" } }), 404);
    expectProblem(await call("/v1/quizzes/nope", { method: "DELETE" }), 404);
    expectProblem(await call("/v1/users/user_x", { method: "DELETE" }), 404);
  });

  it("an unknown path → 404", async () => {
    expectProblem(await callRaw("/v1/nothing-here"), 404, "not_found");
    expectProblem(await callRaw("/nothing"), 404, "not_found");
    expectProblem(await callRaw("/v2/quizzes"), 404, "not_found");
  });

  it("a wrong method on a known path → 405 with Allow", async () => {
    const res = await callRaw("/v1/quizzes", { method: "PUT", body: { title: "x" } });
    expectProblem(res, 405, "method_not_allowed");
    const allow = res.headers.get("allow")?.split(/,\s*/) ?? [];
    expect(allow).toEqual(expect.arrayContaining(["GET", "POST"]));
    expect(allow).not.toContain("PUT");
    expect(allow).not.toContain("DELETE");
  });

  it("405 on an item path lists its methods", async () => {
    const res = await callRaw("/v1/users/user_01kamz3f7c9n0p8s6e5vwx2y4r", { method: "POST", body: {} });
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")?.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "PATCH", "DELETE"]));
  });

  it("405 on /health", async () => {
    const res = await callRaw("/health", { method: "DELETE" });
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")?.split(/,\s*/)).toContain("GET");
  });
});

describe("GET /health", () => {
  it("→ 200", async () => {
    const res = await call("/health");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("GET /docs", () => {
  it("→ 200 HTML that points at the OpenAPI document", async () => {
    const res = await callRaw("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.text).toContain("/openapi.json");
  });
});

describe("identifiers and timestamps", () => {
  it("ids are prefix + lower-case ULID; timestamps ISO 8601 UTC with milliseconds", async () => {
    const quiz = await call("/v1/quizzes", {
      body: { title: "Ids", questions: [{ type: "true_false", prompt: "?", correct: true }] },
    });
    expect(quiz.status, quiz.text).toBe(201);
    expect(quiz.json.id).toMatch(/^quiz_/);
    expect(quiz.json.id.slice(5)).toMatch(ULID_LIKE);
    expect(quiz.json.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const questions = await call(`/v1/quizzes/${quiz.json.id}/questions`);
    expect(questions.json.questions[0]!.id).toMatch(/^qst_[0-7][0-9a-hjkmnp-tv-z]{25}$/);
    const user = await call("/v1/users", { body: { name: "Id", email: `id-${crypto.randomUUID()}@example.com` } });
    expect(user.json.id).toMatch(/^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/);
  });
});

describe("limit is a plain whole number", () => {
  it.each(["1e2", "0x10", "+5", "5.0", " 5", "-1", "0", "101", ""])("limit=%j → 400", async (limit) => {
    const res = await call(`/v1/quizzes?limit=${encodeURIComponent(limit)}`);
    const problem = expectProblem(res, 400, "validation_failed");
    expect(problem.errors?.[0]?.path).toBe("query.limit");
  });

  it("limit=100 and limit=007 are accepted", async () => {
    expect((await call("/v1/quizzes?limit=100")).status).toBe(200);
    expect((await call("/v1/quizzes?limit=007")).status).toBe(200);
  });
});
