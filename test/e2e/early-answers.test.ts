import { describe, expect, it } from "vitest";
import { useDevServer } from "./dev-server";

/**
 * docs/security.md, "The connection survives every early answer": requests whose body the worker
 * answers before reading it (401, 403, 404, 405, 413, 415, 429) leave `npm run dev` answering
 * every following request on time — no 503 "Your worker restarted mid-request", no GET stalled.
 * Without the drain (src/middleware/request-body.ts) about half of such answers came back 503 and
 * the GETs after them waited 5 to 35 s.
 */
describe("early answers leave wrangler dev answering", () => {
  const server = useDevServer();
  const GET_WITHIN_MS = 2_000;

  /** A JSON body of about `bytes` bytes. */
  const json = (bytes: number) => JSON.stringify({ title: "x".repeat(bytes) });
  /** The same bytes as a stream: sent chunked, without Content-Length, so only counting finds the size. */
  const streamed = (text: string) => {
    const bytes = new TextEncoder().encode(text);
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 16 * 1024) controller.enqueue(bytes.subarray(i, i + 16 * 1024));
        controller.close();
      },
    });
  };
  const form = (bytes: number) => `grant_type=client_credentials&client_id=cli_x&pad=${"x".repeat(bytes)}`;
  const FORM = "application/x-www-form-urlencoded";

  interface EarlyAnswer {
    what: string;
    method: string;
    path: string;
    headers?: Record<string, string>;
    body: string | ReadableStream<Uint8Array>;
    status: number;
  }

  async function send(request: EarlyAnswer) {
    const init = {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(15_000),
      // Node's fetch needs this to send a stream as the body.
      duplex: "half",
    } as RequestInit;
    const res = await fetch(`${server().url}${request.path}`, init);
    return { status: res.status, text: await res.text() };
  }

  /** A GET (after an early answer): its status, or a failure saying it was not answered within GET_WITHIN_MS. */
  async function getOnTime(path: string, after: string, headers: Record<string, string> = {}) {
    try {
      const res = await fetch(`${server().url}${path}`, { headers, signal: AbortSignal.timeout(GET_WITHIN_MS) });
      await res.arrayBuffer();
      return res.status;
    } catch (error) {
      throw new Error(`GET ${path} after ${after} was not answered within ${GET_WITHIN_MS} ms (${error})`);
    }
  }

  it("20 requests with bodies answered 401, 403, 404, 405, 413, 415 or 429 before their body was read; every GET after each is answered within 2 s", async () => {
    const { url, key } = server();
    const admin = { "X-API-Key": key };
    const jsonAdmin = { ...admin, "Content-Type": "application/json" };
    // A key that may read quizzes but not write them: its POST is a 403 before the body is read.
    const made = await fetch(`${url}/v1/api-keys`, {
      method: "POST",
      headers: jsonAdmin,
      body: JSON.stringify({ name: "reader", scopes: ["quizzes:read"] }),
    });
    expect(made.status).toBe(201);
    const reader = { "X-API-Key": ((await made.json()) as { key: string }).key, "Content-Type": "application/json" };
    const json4k = json(4 * 1024);
    const overMiB = json(1024 * 1024 + 1024);

    const beforeLimit: EarlyAnswer[] = [
      {
        what: "no credential",
        method: "POST",
        path: "/v1/quizzes",
        headers: { "Content-Type": "application/json" },
        body: json4k,
        status: 401,
      },
      { what: "no credential, PUT", method: "PUT", path: "/v1/quizzes/quiz_x", body: json(8 * 1024), status: 401 },
      { what: "wrong scope", method: "POST", path: "/v1/quizzes", headers: reader, body: json4k, status: 403 },
      { what: "wrong scope, 64 KiB", method: "POST", path: "/v1/users", headers: reader, body: json(64 * 1024), status: 403 },
      { what: "no such path", method: "POST", path: "/v1/nothing-here", headers: jsonAdmin, body: json4k, status: 404 },
      { what: "no such path outside /v1", method: "POST", path: "/nothing-here", body: json4k, status: 404 },
      { what: "wrong method", method: "PUT", path: "/v1/quizzes", headers: jsonAdmin, body: json4k, status: 405 },
      {
        what: "wrong method, 256 KiB",
        method: "DELETE",
        path: "/v1/quizzes",
        headers: jsonAdmin,
        body: json(256 * 1024),
        status: 405,
      },
      {
        what: "wrong method at /oauth/token",
        method: "PUT",
        path: "/oauth/token",
        headers: { "Content-Type": FORM },
        body: form(4 * 1024),
        status: 405,
      },
      {
        what: "over 1 MiB, by Content-Length",
        method: "POST",
        path: "/v1/quizzes",
        headers: jsonAdmin,
        body: overMiB,
        status: 413,
      },
      {
        what: "over 1 MiB, streamed",
        method: "POST",
        path: "/v1/quizzes",
        headers: jsonAdmin,
        body: streamed(overMiB),
        status: 413,
      },
      {
        what: "over 16 KiB at /oauth/token",
        method: "POST",
        path: "/oauth/token",
        headers: { "Content-Type": FORM },
        body: form(20 * 1024),
        status: 413,
      },
      {
        what: "over 16 KiB at /oauth/token, streamed",
        method: "POST",
        path: "/oauth/token",
        headers: { "Content-Type": FORM },
        body: streamed(form(20 * 1024)),
        status: 413,
      },
      {
        what: "not JSON",
        method: "POST",
        path: "/v1/quizzes",
        headers: { ...admin, "Content-Type": "text/plain" },
        body: json4k,
        status: 415,
      },
      {
        what: "not JSON, PATCH",
        method: "PATCH",
        path: "/v1/quizzes/quiz_x",
        headers: { ...admin, "Content-Type": "application/xml" },
        body: json4k,
        status: 415,
      },
    ];
    const overLimit: EarlyAnswer[] = [
      {
        what: "anonymous over the IP's limit",
        method: "POST",
        path: "/v1/quizzes",
        headers: { "Content-Type": "application/json" },
        body: json4k,
        status: 429,
      },
      { what: "anonymous over the IP's limit, PUT", method: "PUT", path: "/v1/quizzes", body: json(8 * 1024), status: 429 },
      { what: "anonymous over the IP's limit, 64 KiB", method: "POST", path: "/v1/users", body: json(64 * 1024), status: 429 },
      {
        what: "anonymous over the IP's limit, streamed",
        method: "POST",
        path: "/v1/users",
        headers: { "Content-Type": "application/json" },
        body: streamed(json4k),
        status: 429,
      },
      {
        what: "anonymous over the IP's limit, not JSON",
        method: "POST",
        path: "/v1/quizzes",
        headers: { "Content-Type": "text/plain" },
        body: json4k,
        status: 429,
      },
    ];
    expect(beforeLimit.length + overLimit.length).toBe(20);
    expect(new Set([...beforeLimit, ...overLimit].map((r) => r.status))).toEqual(new Set([401, 403, 404, 405, 413, 415, 429]));

    const seen: string[] = [];
    const run = async (requests: EarlyAnswer[]) => {
      for (const request of requests) {
        const answer = await send(request);
        seen.push(`${request.what}: ${answer.status}`);
        expect(answer.status, `${request.what} → ${answer.status} ${answer.text.slice(0, 200)}`).toBe(request.status);
        expect(await getOnTime("/health", `"${request.what}" (${answer.status})`)).toBe(200);
      }
    };
    await run(beforeLimit);
    // Spend the anonymous budget of this IP (60 a minute) with bodiless requests, so that the next
    // ones are refused with 429 before anything else is looked at.
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${url}/v1/quizzes`, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.status === 429) break;
      expect(res.status).toBe(401);
    }
    await run(overLimit);

    // Every kind of request still answers on time afterwards: a D1 read, a write, the docs page.
    expect(await getOnTime("/v1/quizzes?limit=5", "the 20 early answers", admin)).toBe(200);
    const write = await fetch(`${url}/v1/users`, {
      method: "POST",
      headers: jsonAdmin,
      body: JSON.stringify({ name: "After", email: `${crypto.randomUUID()}@example.com` }),
      signal: AbortSignal.timeout(GET_WITHIN_MS),
    });
    expect(write.status, await write.text()).toBe(201);
    expect(await getOnTime("/docs", "the 20 early answers")).toBe(200);
    expect(seen).toHaveLength(20);
  });

  it("an import's early answers — over 10 MiB by Content-Length and streamed (413), another media type (415) — leave every GET answered within 2 s", async () => {
    const admin = { "X-API-Key": server().key };
    const elevenMiB = "A".repeat(11 * 1024 * 1024);
    const imports: EarlyAnswer[] = [
      {
        what: "an import over 10 MiB",
        method: "POST",
        path: "/v1/imports?format=gift",
        headers: { ...admin, "Content-Type": "text/plain" },
        body: elevenMiB,
        status: 413,
      },
      {
        what: "an import over 10 MiB, streamed",
        method: "POST",
        path: "/v1/imports?format=gift",
        headers: { ...admin, "Content-Type": "text/plain" },
        body: streamed(elevenMiB),
        status: 413,
      },
      {
        what: "an import as JSON",
        method: "POST",
        path: "/v1/imports",
        headers: { ...admin, "Content-Type": "application/json" },
        body: json(64 * 1024),
        status: 415,
      },
    ];
    for (const request of imports) {
      const answer = await send(request);
      expect(answer.status, `${request.what} → ${answer.status} ${answer.text.slice(0, 200)}`).toBe(request.status);
      expect(await getOnTime("/health", `"${request.what}" (${answer.status})`)).toBe(200);
      expect(await getOnTime("/v1/quizzes?limit=1", `"${request.what}" (${answer.status})`, admin)).toBe(200);
    }
  });
});
