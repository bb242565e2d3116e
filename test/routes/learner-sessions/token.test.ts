import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callRaw, expectProblem, seedApiKey } from "../../support/call";
import { asLearner, createQuiz, createUser, learnerSetup, mint } from "./fixtures";

type Json = Record<string, unknown> & { id: string };
const json = (res: { json: unknown }) => res.json as Json;

describe("GET /v1/learner-sessions/current", () => {
  it("answers the session, user, quiz, attempts and submissions, exactly", async () => {
    const settings = { max_attempts: 2, time_limit_seconds: 600, show_correct_answers: "after_last_attempt" };
    const { quiz, user, session, token } = await learnerSetup(settings);
    expect(
      (await call(`/v1/quizzes/${quiz.id}/accommodations/${user}`, { method: "PUT", body: { extra_attempts: 1 } })).status,
    ).toBe(200);
    const started = await asLearner(token, `/v1/quizzes/${quiz.id}/submissions`, { method: "POST", body: {} });
    expect(started.status, started.text).toBe(201);
    const res = await asLearner(token, "/v1/learner-sessions/current");
    expect(res.status, res.text).toBe(200);
    const quizRead = await call(`/v1/quizzes/${quiz.id}`);
    expect(res.json).toEqual({
      session: { id: session.id, expires_at: session.expires_at, return_url: null },
      user: { id: user, name: "Student" },
      quiz: {
        id: quiz.id,
        title: quizRead.json.title,
        description: "",
        questions: 5,
        settings: {
          time_limit_seconds: 600,
          available_from: null,
          available_until: null,
          max_attempts: 2,
          show_correct_answers: "after_last_attempt",
        },
      },
      attempts: { used: 1, allowed: 3 },
      submissions: [
        {
          id: json(started).id,
          status: "open",
          score: null,
          created_at: json(started).created_at,
          deadline_at: json(started).deadline_at,
        },
      ],
    });
  });

  it("counts the questions a submission presents when the quiz draws from a pool", async () => {
    const tf = (pool: string | null) => ({ type: "true_false", prompt: "Is it?", correct: true, pool });
    const { token } = await learnerSetup({ pools: [{ pool: "p", pick: 2 }] }, [tf(null), tf("p"), tf("p"), tf("p")]);
    const res = await asLearner(token, "/v1/learner-sessions/current");
    expect((res.json as { quiz: { questions: number } }).quiz.questions).toBe(3);
  });

  it("another credential → 403 insufficient_scope", async () => {
    expectProblem(await call("/v1/learner-sessions/current"), 403, "insufficient_scope");
    const key = (await seedApiKey(["learners:write"])).key;
    expectProblem(await call("/v1/learner-sessions/current", { auth: key }), 403, "insufficient_scope");
  });
});

describe("what a learner token may do", () => {
  it("starts a submission of its quiz as its user (user_id omitted or its own), reads, answers, grades and reads results", async () => {
    const { quiz, user, token } = await learnerSetup({ show_correct_answers: "always" });
    const first = await asLearner(token, `/v1/quizzes/${quiz.id}/submissions`, { method: "POST", body: {} });
    expect(first.status, first.text).toBe(201);
    expect(json(first).user_id).toBe(user);
    const own = await asLearner(token, `/v1/quizzes/${quiz.id}/submissions`, { method: "POST", body: { user_id: user } });
    expect(own.status, own.text).toBe(201);
    const id = json(first).id;
    const read = await asLearner(token, `/v1/submissions/${id}`);
    expect(read.status, read.text).toBe(200);
    const answers = [{ question_id: quiz.questionIds[2], response: true }];
    const put = await asLearner(token, `/v1/submissions/${id}/answers`, { method: "PUT", body: { answers } });
    expect(put.status, put.text).toBe(200);
    const graded = await asLearner(token, `/v1/submissions/${id}/grade`, { method: "POST" });
    expect(graded.status, graded.text).toBe(200);
    const results = await asLearner(token, `/v1/submissions/${id}/results`);
    expect(results.status, results.text).toBe(200);
    // What a quizzes:read + submissions:read + submissions:write key sees of the same results.
    const peer = (await seedApiKey(["quizzes:read", "submissions:read", "submissions:write"])).key;
    expect(results.json).toEqual((await callRaw(`/v1/submissions/${id}/results`, { auth: peer })).json);
  });

  it("its submission's read carries each presented question as such a credential sees it: no key", async () => {
    const { quiz, token } = await learnerSetup({ shuffle_options: true });
    const sub = json(await asLearner(token, `/v1/quizzes/${quiz.id}/submissions`, { method: "POST", body: {} }));
    const res = await asLearner(token, `/v1/submissions/${sub.id}`);
    const questions = (res.json as { questions: { question_id: string; option_order?: string[]; question: Json }[] }).questions;
    expect(questions).toHaveLength(5);
    const text = JSON.stringify(questions);
    for (const key of ["correct_option_id", "correct_option_ids", '"correct"', "accepted_answers", "correct_value", "tolerance"])
      expect(text).not.toContain(key);
    const single = questions.find((q) => q.question.type === "single_choice")!;
    expect(single.question).toMatchObject({ prompt: "2 + 2?", points: 1 });
    // The options in the order the submission presents them.
    expect((single.question.options as { id: string }[]).map((o) => o.id)).toEqual(single.option_order);
    const peer = (await seedApiKey(["quizzes:read", "submissions:read", "submissions:write"])).key;
    expect(res.json).toEqual((await callRaw(`/v1/submissions/${sub.id}`, { auth: peer })).json);
    // quizzes:write sees the key there too, as in the question list.
    const author = await call(`/v1/submissions/${sub.id}`);
    expect(JSON.stringify(author.json)).toContain("correct_option_id");
  });

  it("another user's or another quiz's submission → 404; another quiz's submissions → 404; another user → 403", async () => {
    const { quiz, user, token } = await learnerSetup();
    const otherUser = await createUser();
    const otherQuiz = await createQuiz();
    const theirs = json(await call(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: otherUser } }));
    const elsewhere = json(await call(`/v1/quizzes/${otherQuiz.id}/submissions`, { body: { user_id: user } }));
    for (const id of [theirs.id, elsewhere.id, "sub_01kamz3f7c9n0p8s6e5vwx2y4r"]) {
      expectProblem(await asLearner(token, `/v1/submissions/${id}`), 404);
      expectProblem(await asLearner(token, `/v1/submissions/${id}/results`), 404);
      expectProblem(await asLearner(token, `/v1/submissions/${id}/grade`, { method: "POST" }), 404);
      expectProblem(await asLearner(token, `/v1/submissions/${id}/answers`, { method: "PUT", body: { answers: [] } }), 404);
    }
    expectProblem(await asLearner(token, `/v1/quizzes/${otherQuiz.id}/submissions`, { method: "POST", body: {} }), 404);
    const forOther = await asLearner(token, `/v1/quizzes/${quiz.id}/submissions`, {
      method: "POST",
      body: { user_id: otherUser },
    });
    expectProblem(forOther, 403, "insufficient_scope");
    // Nothing was graded or written by those refusals.
    expect(json(await call(`/v1/submissions/${theirs.id}`)).status).toBe("open");
  });

  it("every other operation → 403 insufficient_scope (the question list, quizzes, users, verify, events)", async () => {
    const { quiz, user, token } = await learnerSetup();
    const attempts: [string, string, unknown?][] = [
      ["GET", `/v1/quizzes/${quiz.id}/questions`],
      ["GET", `/v1/quizzes/${quiz.id}`],
      ["GET", "/v1/quizzes"],
      ["GET", `/v1/quizzes/${quiz.id}/submissions`],
      ["GET", `/v1/users/${user}`],
      ["GET", `/v1/users/${user}/submissions`],
      ["GET", "/v1/auth/verify"],
      ["GET", "/v1/events"],
      ["POST", "/v1/learner-sessions", { user_id: user, quiz_id: quiz.id }],
      ["PATCH", `/v1/quizzes/${quiz.id}`, { title: "mine" }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await asLearner(token, path, { method, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
      expectProblem(res, 403, "insufficient_scope");
    }
  });

  it("a learner token at /oauth/* → 401", async () => {
    const { token } = await learnerSetup();
    for (const path of ["/oauth/token", "/oauth/revoke", "/oauth/introspect"]) {
      const res = await callRaw(path, {
        method: "POST",
        auth: token,
        raw: new URLSearchParams({ grant_type: "client_credentials", token }),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(res.status, `${path}: ${res.text}`).toBe(401);
      expect((res.json as { error: string }).error).toBe("invalid_client");
    }
  });

  it("is rate-limited per session: each session counts its own requests", async () => {
    const { quiz, user, token } = await learnerSetup();
    const other = (await mint(user, quiz.id)).token;
    const remaining = async (t: string) => {
      const res = await asLearner(t, "/v1/learner-sessions/current");
      return Number(/r=(\d+)/.exec(res.headers.get("ratelimit") ?? "")?.[1]);
    };
    const a1 = await remaining(token);
    const a2 = await remaining(token);
    const b1 = await remaining(other);
    expect(a2).toBe(a1 - 1);
    expect(b1).toBe(a1); // the other session's first request: a budget of its own
  });

  it("a deleted user's or quiz's session is refused → 401 invalid_token", async () => {
    const a = await learnerSetup();
    expect((await call(`/v1/users/${a.user}`, { method: "DELETE" })).status).toBe(204);
    expectProblem(await asLearner(a.token, "/v1/learner-sessions/current"), 401, "invalid_token");
    const b = await learnerSetup();
    expect((await call(`/v1/quizzes/${b.quiz.id}`, { method: "DELETE" })).status).toBe(204);
    expectProblem(await asLearner(b.token, "/v1/learner-sessions/current"), 401, "invalid_token");
  });

  it("an expired token → 401 invalid_token", async () => {
    const { token, session } = await learnerSetup();
    expect((await asLearner(token, "/v1/learner-sessions/current")).status).toBe(200);
    await env.DB.prepare("UPDATE learner_sessions SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), session.id)
      .run();
    const res = await asLearner(token, "/v1/learner-sessions/current");
    expectProblem(res, 401, "invalid_token");
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("an unknown token of the right shape, or one in X-API-Key → 401", async () => {
    const { token } = await learnerSetup();
    expectProblem(await asLearner(`qz_lt_${"a".repeat(43)}`, "/v1/learner-sessions/current"), 401, "invalid_token");
    const res = await callRaw("/v1/learner-sessions/current", { auth: false, headers: { "x-api-key": token } });
    expectProblem(res, 401, "invalid_token");
  });
});
