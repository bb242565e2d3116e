import { hc } from "hono/client";
import { describe, expect, it } from "vitest";
import type { AppType } from "../../src/index";
import { BASE, defaultKey, fetchWorker } from "../support/call";

describe("hono/client with AppType", () => {
  it("gives typed calls that reach the worker", async () => {
    const api = hc<AppType>(BASE, {
      headers: { Authorization: `Bearer ${await defaultKey()}` },
      fetch: (input: RequestInfo | URL, init?: RequestInit) => fetchWorker(new Request(input, init)),
    });
    const created = await api.v1.quizzes.$post({ json: { title: "Typed" } });
    expect(created.status).toBe(201);
    if (created.status !== 201) return;
    const quiz = await created.json();
    expect(quiz.questions).toBe(0);

    const page = await api.v1.quizzes.$get({ query: { limit: "10" } });
    if (page.status !== 200) throw new Error(`expected 200, got ${page.status}`);
    const body = await page.json();
    expect(body.quizzes.map((q) => q.id)).toContain(quiz.id);

    const one = await api.v1.quizzes[":id"].$get({ param: { id: quiz.id } });
    expect(one.status).toBe(200);
  });
});
