import { describe, expect, it } from "vitest";
import { callRaw } from "../../support/call";
import { asLearner, learnerSetup, ORIGIN } from "./fixtures";

const preflight = (path: string, origin: string, method = "POST") =>
  callRaw(path, {
    method: "OPTIONS",
    auth: false,
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": "authorization, content-type" },
  });

describe("CORS for learner tokens", () => {
  it("an answer to a learner token from one of its session's origins names that origin, Vary: Origin", async () => {
    const { token } = await learnerSetup();
    const res = await asLearner(token, "/v1/learner-sessions/current", { origin: ORIGIN });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(res.headers.get("vary")).toContain("Origin");
    expect(res.headers.get("access-control-expose-headers")).toContain("X-D1-Bookmark");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("a refusal to that origin carries it too, so the page can read the problem", async () => {
    const { token } = await learnerSetup();
    const res = await asLearner(token, "/v1/quizzes", { origin: ORIGIN });
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  });

  it("another origin, or no origin, gets no CORS header", async () => {
    const { token } = await learnerSetup();
    for (const origin of [
      "https://evil.example.org",
      "https://school.example.org:8443",
      "http://school.example.org",
      undefined,
    ]) {
      const res = await asLearner(token, "/v1/learner-sessions/current", { origin });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin"), String(origin)).toBeNull();
    }
  });

  it("an API key from a session's origin gets no CORS header (CORS_ALLOW_ORIGINS is empty here)", async () => {
    await learnerSetup();
    const res = await callRaw("/v1/quizzes", { headers: { origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("a preflight of a learner route allows exactly Authorization, Content-Type, Idempotency-Key and X-D1-Bookmark", async () => {
    const { quiz } = await learnerSetup();
    for (const path of [
      "/v1/learner-sessions/current",
      `/v1/quizzes/${quiz.id}/submissions`,
      "/v1/submissions/sub_01kamz3f7c9n0p8s6e5vwx2y4r/answers",
      "/v1/submissions/sub_01kamz3f7c9n0p8s6e5vwx2y4r/answers/qst_01kamz3f7c9n0p8s6e5vwx2y4r",
    ]) {
      const res = await preflight(path, ORIGIN, "PUT");
      expect(res.status, path).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
      expect(res.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type, Idempotency-Key, X-D1-Bookmark");
      expect(res.headers.get("access-control-allow-methods")).toBe("GET, POST, PUT");
      expect(res.headers.get("vary")).toContain("Origin");
    }
  });

  it("a preflight of any other route gets no CORS header", async () => {
    await learnerSetup();
    for (const path of ["/v1/quizzes", "/v1/learner-sessions", "/v1/users", "/oauth/token"]) {
      const res = await preflight(path, ORIGIN);
      expect(res.headers.get("access-control-allow-origin"), path).toBeNull();
    }
  });
});
