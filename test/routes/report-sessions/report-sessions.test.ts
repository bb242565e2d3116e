import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../src/lib/crypto";
import { call, callRaw, expectProblem, seedApiKey } from "../../support/call";
import { createQuiz, createSubmission, createUser, grade } from "../submissions/fixtures";

const SESSION_ID = /^rse_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
const REPORT_TOKEN = /^qz_vt_[0-9A-Za-z]{43}$/;

async function mintReport(quizIds: string[], auth?: string) {
  const res = await call("/v1/report-sessions", { body: { quiz_ids: quizIds }, auth });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** Two quizzes with a graded submission each; a report token for the first. */
async function setup() {
  const [mine, other, user] = await Promise.all([createQuiz(), createQuiz(), createUser()]);
  const sub = await createSubmission(mine.id, user);
  await grade(sub.id);
  const otherSub = await createSubmission(other.id, user);
  await grade(otherSub.id);
  const session = await mintReport([mine.id]);
  return { mine, other, user, sub: sub.id, otherSub: otherSub.id, session, token: session.token as string };
}

const asReader = (token: string, path: string, method = "GET", body?: unknown) => callRaw(path, { method, body, auth: token });

describe("POST /v1/report-sessions", () => {
  it("mints a report token → 201: rse_ id, qz_vt_ token shown once, report_url, stored as SHA-256", async () => {
    const quiz = await createQuiz();
    const res = await call("/v1/report-sessions", { body: { quiz_ids: [quiz.id], expires_in: 600 } });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(SESSION_ID),
      token: expect.stringMatching(REPORT_TOKEN),
      quiz_ids: [quiz.id],
      expires_at: expect.any(String),
      report_url: `http://quiz.test/reports/#session=${res.json.token}`,
      created_at: expect.any(String),
    });
    expect(Date.parse(res.json.expires_at) - Date.parse(res.json.created_at)).toBe(600_000);
    const row = await env.DB.prepare("SELECT * FROM report_sessions WHERE id = ?").bind(res.json.id).first();
    expect(row?.token_hash).toBe(await sha256Hex(res.json.token));
    expect(JSON.stringify(row)).not.toContain(res.json.token.slice(6));
  });

  it("quiz_ids: none, more than 50, or an unknown quiz → 400 naming it; expires_in out of range → 400", async () => {
    const quiz = await createQuiz();
    expectProblem(await call("/v1/report-sessions", { body: { quiz_ids: [] } }), 400);
    expectProblem(await call("/v1/report-sessions", { body: { quiz_ids: Array(51).fill(quiz.id) } }), 400);
    const unknown = await call("/v1/report-sessions", { body: { quiz_ids: [quiz.id, "quiz_01kamz3f7c9n0p8s6e5vwx2y4r"] } });
    expectProblem(unknown, 400);
    expect(unknown.problem.errors?.map((e) => e.path)).toEqual(["quiz_ids.1"]);
    for (const expires_in of [59, 28_801])
      expectProblem(await call("/v1/report-sessions", { body: { quiz_ids: [quiz.id], expires_in } }), 400);
  });

  it("needs analytics:read and submissions:read: either alone → 403", async () => {
    const quiz = await createQuiz();
    const both = (await seedApiKey(["analytics:read", "submissions:read"])).key;
    await mintReport([quiz.id], both);
    for (const scopes of [["analytics:read"], ["submissions:read"]] as const) {
      const key = (await seedApiKey([...scopes])).key;
      expectProblem(await call("/v1/report-sessions", { body: { quiz_ids: [quiz.id] }, auth: key }), 403, "insufficient_scope");
    }
  });
});

describe("what a report token may do", () => {
  it("reads its quizzes: the quiz, questions, analytics, item analysis, submissions, results, the export, verify", async () => {
    const { mine, sub, token } = await setup();
    for (const path of [
      `/v1/quizzes/${mine.id}`,
      `/v1/quizzes/${mine.id}/questions`,
      `/v1/analytics/quiz/${mine.id}`,
      `/v1/analytics/quiz/${mine.id}/items`,
      `/v1/quizzes/${mine.id}/submissions`,
      `/v1/submissions/${sub}/results`,
      `/v1/quizzes/${mine.id}/results/export?format=csv&shape=submissions`,
      "/v1/auth/verify",
    ]) {
      const res = await asReader(token, path);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }
    const verify = await asReader(token, "/v1/auth/verify");
    expect((verify.json as { credential: { type: string } }).credential.type).toBe("report_session");
  });

  it("the list of quizzes is narrowed to its quizzes, paginated", async () => {
    const [a, b, c] = await Promise.all([createQuiz(), createQuiz(), createQuiz()]);
    const { token } = await mintReport([c.id, a.id]);
    const res = await asReader(token, "/v1/quizzes?limit=1");
    const page = res.json as { quizzes: { id: string }[]; next_cursor: string | null };
    const ids = [page.quizzes[0]!.id];
    const next = await asReader(token, `/v1/quizzes?limit=1&cursor=${page.next_cursor}`);
    ids.push(...(next.json as { quizzes: { id: string }[] }).quizzes.map((q) => q.id));
    expect(ids).toEqual([a.id, c.id].sort());
    expect(ids).not.toContain(b.id);
  });

  it("another quiz's resources → 404", async () => {
    const { other, otherSub, token } = await setup();
    for (const path of [
      `/v1/quizzes/${other.id}`,
      `/v1/quizzes/${other.id}/questions`,
      `/v1/analytics/quiz/${other.id}`,
      `/v1/analytics/quiz/${other.id}/items`,
      `/v1/quizzes/${other.id}/submissions`,
      `/v1/submissions/${otherSub}/results`,
      `/v1/quizzes/${other.id}/results/export?format=csv&shape=submissions`,
    ])
      expectProblem(await asReader(token, path), 404);
  });

  it("every write and every other operation → 403", async () => {
    const { mine, user, sub, token } = await setup();
    const attempts: [string, string, unknown?][] = [
      ["PATCH", `/v1/quizzes/${mine.id}`, { title: "x" }],
      ["POST", "/v1/quizzes", { title: "x" }],
      ["POST", `/v1/quizzes/${mine.id}/submissions`, { user_id: user }],
      ["POST", `/v1/submissions/${sub}/grade`],
      ["GET", `/v1/submissions/${sub}`],
      ["GET", `/v1/users/${user}`],
      ["GET", `/v1/quizzes/${mine.id}/grades`],
      ["GET", "/v1/learner-sessions/current"],
      ["POST", "/v1/report-sessions", { quiz_ids: [mine.id] }],
    ];
    for (const [method, path, body] of attempts)
      expectProblem(await asReader(token, path, method, body), 403, "insufficient_scope");
  });

  it("DELETE /v1/report-sessions/{id} revokes it → 204, then 401; GET never shows the token", async () => {
    const { mine, session, token } = await setup();
    const got = await call(`/v1/report-sessions/${session.id}`);
    expect(got.json).toEqual({
      id: session.id,
      quiz_ids: [mine.id],
      expires_at: session.expires_at,
      created_at: session.created_at,
      revoked_at: null,
    });
    expect((await call(`/v1/report-sessions/${session.id}`, { method: "DELETE" })).status).toBe(204);
    expectProblem(await asReader(token, `/v1/quizzes/${mine.id}`), 401, "invalid_token");
    expect((await call(`/v1/report-sessions/${session.id}`)).json.revoked_at).toEqual(expect.any(String));
    expectProblem(await call("/v1/report-sessions/rse_01kamz3f7c9n0p8s6e5vwx2y4r", { method: "DELETE" }), 404);
  });

  it("an expired report token → 401 invalid_token", async () => {
    const { mine, session, token } = await setup();
    await env.DB.prepare("UPDATE report_sessions SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), session.id)
      .run();
    expectProblem(await asReader(token, `/v1/quizzes/${mine.id}`), 401, "invalid_token");
  });
});
