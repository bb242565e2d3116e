import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createKey, expectNeedsAdmin, expectRefused, ISO_MS, MISSING, sleep, verify } from "./fixtures";

describe("GET /v1/api-keys/{id}/usage", () => {
  it("a new key → no requests yet", async () => {
    const created = await createKey();
    const res = await call(`/v1/api-keys/${created.id}/usage`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ key_id: created.id, total_requests: 0, last_used_at: null, daily: [] });
  });

  it("counts requests and error answers within 10 seconds", async () => {
    const created = await createKey({ scopes: ["quizzes:read"] });
    const started = new Date().toISOString();
    const answers = [
      await verify(created.key),
      await call("/v1/quizzes", { auth: created.key }),
      await verify(created.key, "x-api-key"),
      await call("/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4r", { auth: created.key }), // 404
      await call("/v1/users", { auth: created.key }), // 403: no users:read
      await call("/v1/quizzes?limit=0", { auth: created.key }), // 400
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 404, 403, 400]);
    const requests = answers.length;
    const errors = answers.filter((r) => r.status >= 400).length;

    let usage: any;
    const deadline = Date.now() + 10_000;
    do {
      await sleep(250);
      usage = (await call(`/v1/api-keys/${created.id}/usage`)).json;
    } while (usage.total_requests < requests && Date.now() < deadline);

    const today = new Date().toISOString().slice(0, 10);
    expect(usage).toEqual({
      key_id: created.id,
      total_requests: requests,
      last_used_at: expect.stringMatching(ISO_MS),
      daily: [{ date: today, requests, errors }],
    });
    expect(usage.last_used_at >= started).toBe(true);
    expect((await call(`/v1/api-keys/${created.id}`)).json.last_used_at).toBe(usage.last_used_at);
  });

  it("a body the /v1 guard refuses (415, 413) counts as an error answer of the key", async () => {
    const created = await createKey({ scopes: ["quizzes:read"] });
    const answers = [
      await call("/v1/quizzes", { auth: created.key, raw: "title", headers: { "content-type": "text/plain" } }),
      await call("/v1/quizzes", {
        auth: created.key,
        raw: `{"title":"${"x".repeat(1024 * 1024)}"}`,
        headers: { "content-type": "application/json" },
      }),
      await verify(created.key),
    ];
    expect(answers.map((r) => r.status)).toEqual([415, 413, 200]);
    let usage: any;
    const deadline = Date.now() + 10_000;
    do {
      await sleep(250);
      usage = (await call(`/v1/api-keys/${created.id}/usage`)).json;
    } while (usage.total_requests < answers.length && Date.now() < deadline);
    expect(usage.daily).toEqual([{ date: new Date().toISOString().slice(0, 10), requests: 3, errors: 2 }]);
  });

  it("refused requests with a revoked key are not counted", async () => {
    const created = await createKey();
    expect((await call(`/v1/api-keys/${created.id}`, { method: "DELETE" })).status).toBe(204);
    await expectRefused(created.key);
    await sleep(1500);
    expect((await call(`/v1/api-keys/${created.id}/usage`)).json.total_requests).toBe(0);
  });

  it("unknown or malformed id → 404", async () => {
    expectProblem(await call(`${MISSING}/usage`), 404, "not_found");
    expectProblem(await call("/v1/api-keys/nope/usage"), 404, "not_found");
  });

  it("needs admin", async () => {
    await expectNeedsAdmin(`/v1/api-keys/${(await createKey()).id}/usage`);
  });
});
