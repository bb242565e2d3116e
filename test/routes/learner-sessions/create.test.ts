import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../src/lib/crypto";
import { call, expectProblem, seedApiKey } from "../../support/call";
import { createQuiz, createUser, LEARNER_TOKEN, mint, ORIGIN, SESSION_ID, sessionEvents } from "./fixtures";

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("POST /v1/learner-sessions", () => {
  it("mints a session → 201, Location, the token and player_url shown once", async () => {
    const [quiz, user] = await Promise.all([createQuiz(), createUser()]);
    const before = Date.now();
    const res = await call("/v1/learner-sessions", {
      body: { user_id: user, quiz_id: quiz.id, origins: [ORIGIN], return_url: "https://school.example.org/course/1" },
    });
    expect(res.status, res.text).toBe(201);
    const s = res.json;
    expect(s).toEqual({
      id: expect.stringMatching(SESSION_ID),
      token: expect.stringMatching(LEARNER_TOKEN),
      user_id: user,
      quiz_id: quiz.id,
      origins: [ORIGIN],
      return_url: "https://school.example.org/course/1",
      lti_launch_id: null,
      expires_at: expect.stringMatching(ISO_MS),
      player_url: `http://quiz.test/play/#session=${s.token}`,
      created_at: expect.stringMatching(ISO_MS),
    });
    expect(res.headers.get("location")).toBe(`/v1/learner-sessions/${s.id}`);
    const lifetime = Date.parse(s.expires_at) - Date.parse(s.created_at);
    expect(lifetime).toBe(7200 * 1000);
    expect(Date.parse(s.created_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("stores only the token's SHA-256, never the token", async () => {
    const s = await mint(await createUser(), (await createQuiz()).id);
    const row = await env.DB.prepare("SELECT * FROM learner_sessions WHERE id = ?").bind(s.id).first<Record<string, unknown>>();
    expect(row?.token_hash).toBe(await sha256Hex(s.token));
    expect(JSON.stringify(row)).not.toContain(s.token);
    expect(JSON.stringify(row)).not.toContain(s.token.slice(6));
  });

  it("writes learner_session.created in the same batch, without the token", async () => {
    const s = await mint(await createUser(), (await createQuiz()).id);
    const events = await sessionEvents("learner_session.created", s.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.object).toMatchObject({ id: s.id, user_id: s.user_id, quiz_id: s.quiz_id, origins: [ORIGIN] });
    expect(JSON.stringify(events[0])).not.toContain(s.token.slice(6));
    expect(events[0]!.object).not.toHaveProperty("token");
    expect(events[0]!.object).not.toHaveProperty("player_url");
  });

  it("expires_in 60 and 28 800 are accepted; 59, 28 801 and 1.5 → 400 naming expires_in", async () => {
    const [quiz, user] = await Promise.all([createQuiz(), createUser()]);
    for (const expires_in of [60, 28_800]) {
      const s = await mint(user, quiz.id, { expires_in });
      expect(Date.parse(s.expires_at) - Date.parse(s.created_at)).toBe(expires_in * 1000);
    }
    for (const expires_in of [59, 28_801, 1.5, "60"]) {
      const res = await call("/v1/learner-sessions", { body: { user_id: user, quiz_id: quiz.id, expires_in } });
      expectProblem(res, 400);
      expect(JSON.stringify(res.problem), String(expires_in)).toContain("expires_in");
    }
  });

  it("origins: https with a port, and loopback http under allow-loopback, are kept normalised", async () => {
    const [quiz, user] = await Promise.all([createQuiz(), createUser()]);
    const s = await mint(user, quiz.id, {
      origins: ["https://School.Example.org:8443", "https://a.example.org:443", "http://localhost:5173", "http://127.0.0.1:8080"],
    });
    expect(s.origins).toEqual([
      "https://school.example.org:8443",
      "https://a.example.org",
      "http://localhost:5173",
      "http://127.0.0.1:8080",
    ]);
  });

  it("a bad origin → 400 naming origins.N", async () => {
    const [quiz, user] = await Promise.all([createQuiz(), createUser()]);
    const bad = [
      "https://school.example.org/",
      "https://school.example.org/play",
      "https://school.example.org?x=1",
      "https://school.example.org#x",
      "http://school.example.org",
      "http://192.168.1.2",
      "ftp://school.example.org",
      "https://user@school.example.org",
      "school.example.org",
      "",
      "https://",
    ];
    for (const origin of bad) {
      const res = await call("/v1/learner-sessions", { body: { user_id: user, quiz_id: quiz.id, origins: [ORIGIN, origin] } });
      expectProblem(res, 400);
      expect(JSON.stringify(res.problem), origin).toContain("origins.1");
    }
  });

  it("more than 10 origins → 400; 10 → 201", async () => {
    const [quiz, user] = await Promise.all([createQuiz(), createUser()]);
    const origins = Array.from({ length: 11 }, (_, i) => `https://s${i}.example.org`);
    expectProblem(await call("/v1/learner-sessions", { body: { user_id: user, quiz_id: quiz.id, origins } }), 400);
    expect((await mint(user, quiz.id, { origins: origins.slice(0, 10) })).origins).toHaveLength(10);
  });

  it("return_url must be a safe https URL → 400 naming return_url", async () => {
    const [quiz, user] = await Promise.all([createQuiz(), createUser()]);
    for (const return_url of ["javascript:alert(1)", "http://school.example.org/x", "https://10.0.0.1/x", "not a url"]) {
      const res = await call("/v1/learner-sessions", { body: { user_id: user, quiz_id: quiz.id, return_url } });
      expectProblem(res, 400);
      expect(JSON.stringify(res.problem), return_url).toContain("return_url");
    }
  });

  it("an unknown or deleted user → 400 naming user_id; an unknown quiz → 400 naming quiz_id; nothing written", async () => {
    const [quiz, user] = await Promise.all([createQuiz(), createUser()]);
    const before = await env.DB.prepare("SELECT count(*) AS n FROM learner_sessions").first<{ n: number }>();
    const unknownUser = await call("/v1/learner-sessions", {
      body: { user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r", quiz_id: quiz.id },
    });
    expectProblem(unknownUser, 400);
    expect(unknownUser.problem.errors?.map((e) => e.path)).toEqual(["user_id"]);
    const unknownQuiz = await call("/v1/learner-sessions", {
      body: { user_id: user, quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r" },
    });
    expectProblem(unknownQuiz, 400);
    expect(unknownQuiz.problem.errors?.map((e) => e.path)).toEqual(["quiz_id"]);
    expect((await call(`/v1/users/${user}`, { method: "DELETE" })).status).toBe(204);
    const deleted = await call("/v1/learner-sessions", { body: { user_id: user, quiz_id: quiz.id } });
    expectProblem(deleted, 400);
    expect(deleted.problem.errors?.map((e) => e.path)).toEqual(["user_id"]);
    const after = await env.DB.prepare("SELECT count(*) AS n FROM learner_sessions").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("unknown fields → 400", async () => {
    const [quiz, user] = await Promise.all([createQuiz(), createUser()]);
    expectProblem(await call("/v1/learner-sessions", { body: { user_id: user, quiz_id: quiz.id, scopes: ["admin"] } }), 400);
  });

  it("needs learners:write (admin implies it): another scope → 403", async () => {
    const [quiz, user] = await Promise.all([createQuiz(), createUser()]);
    const body = { user_id: user, quiz_id: quiz.id };
    const writer = (await seedApiKey(["learners:write"])).key;
    expect((await call("/v1/learner-sessions", { body, auth: writer })).status).toBe(201);
    const other = (await seedApiKey(["quizzes:write", "users:write", "submissions:write"])).key;
    const res = await call("/v1/learner-sessions", { body, auth: other });
    expectProblem(res, 403, "insufficient_scope");
    expect(res.headers.get("www-authenticate")).toContain('scope="learners:write"');
  });
});
