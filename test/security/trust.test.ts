import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { windowStart } from "../../src/domain/rate-limit";
import { countingEnv } from "../support/binding-counter";
import { BASE, call, callRaw, expectProblem, seedApiKey } from "../support/call";
import { clientCredentials, discover, seedClient } from "../support/oauth-helpers";

/**
 * Regression tests for the trust invariants of docs/security.md that are not covered by a suite of
 * their own (token families: oauth-token-families.test.ts; text: text.test.ts; docs: docs.test.ts).
 */

let n = 0;
const email = () => `trust-${Date.now()}-${n++}@example.com`;
const background: Promise<void>[] = [];
afterAll(() => Promise.all(background));

async function quizWith(questions: unknown[], settings: Record<string, unknown> = {}) {
  const res = await call("/v1/quizzes", { body: { title: "Trust", questions, settings } });
  expect(res.status).toBe(201);
  const list = await call(`/v1/quizzes/${res.json.id}/questions?limit=100`);
  return { id: res.json.id as string, ids: list.json.questions.map((q: { id: string }) => q.id) as string[] };
}

async function user() {
  const res = await call("/v1/users", { body: { name: "Taker", email: email() } });
  return res.json.id as string;
}

describe("authorization before any replay (§6)", () => {
  it("a narrower token of the same client cannot replay a broad token's POST /v1/api-keys answer", async () => {
    const as = await discover();
    const client = await seedClient(["admin", "quizzes:read"]);
    const broad = await clientCredentials(as, client, { scope: "admin" });
    const narrow = await clientCredentials(as, client, { scope: "quizzes:read" });
    const body = { name: "minted", scopes: ["admin"] };
    const headers = { "Idempotency-Key": "replay-escalation-1" };

    const first = await call("/v1/api-keys", { body, headers, auth: broad.access_token });
    expect(first.status).toBe(201);
    expect(first.json.key).toMatch(/^qz_live_/);

    const replay = await call("/v1/api-keys", { body, headers, auth: narrow.access_token });
    expectProblem(replay, 403, "insufficient_scope");
    expect(replay.text).not.toContain(first.json.key);
    expect(replay.text).not.toContain("qz_live_");
    expect(replay.headers.get("idempotent-replayed")).toBeNull();
  });

  it("another grant of the same client with the same scopes is not the original credential: no replay", async () => {
    const as = await discover();
    const client = await seedClient(["admin"]);
    const one = await clientCredentials(as, client, { scope: "admin" });
    const other = await clientCredentials(as, client, { scope: "admin" });
    const body = { name: "minted", scopes: ["quizzes:read"] };
    const headers = { "Idempotency-Key": "replay-grant-1" };
    const first = await call("/v1/api-keys", { body, headers, auth: one.access_token });
    const second = await call("/v1/api-keys", { body, headers, auth: other.access_token });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(second.json.key).not.toBe(first.json.key);
    // The original credential still gets its replay.
    const again = await call("/v1/api-keys", { body, headers, auth: one.access_token });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.key).toBe(first.json.key);
  });

  it("an API key that lost nothing but is not the original key gets no replay either", async () => {
    const a = await seedApiKey(["users:write"]);
    const b = await seedApiKey(["users:write"]);
    const body = { name: "Replayed", email: email() };
    const headers = { "Idempotency-Key": "replay-key-1" };
    const first = await call("/v1/users", { body, headers, auth: a.key });
    const second = await call("/v1/users", { body, headers, auth: b.key });
    expect(first.status).toBe(201);
    expectProblem(second, 409, "email_taken");
    expect(second.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("strict query parameters everywhere (§6)", () => {
  it("an unknown query parameter → 400 on POST, PUT, PATCH, DELETE and GET alike", async () => {
    const quiz = await quizWith([{ type: "true_false", prompt: "T?", correct: true }]);
    const cases: [string, string, unknown][] = [
      ["POST", "/v1/quizzes?force=1", { title: "Q" }],
      ["POST", "/v1/users?notify=true", { name: "N", email: email() }],
      ["PATCH", `/v1/quizzes/${quiz.id}?x=1`, { title: "R" }],
      ["GET", `/v1/quizzes/${quiz.id}?expand=questions`, undefined],
      ["DELETE", `/v1/quizzes/${quiz.id}/questions/${quiz.ids[0]}?cascade=1`, undefined],
      ["POST", "/v1/api-keys?debug", { name: "k", scopes: ["quizzes:read"] }],
    ];
    for (const [method, path, body] of cases) {
      const problem = expectProblem(await callRaw(path, { method, body }), 400, "validation_failed");
      expect(problem.errors?.[0]?.path, `${method} ${path}`).toMatch(/^query\./);
    }
    // Nothing was changed by the refused requests.
    expect((await call(`/v1/quizzes/${quiz.id}`)).json).toMatchObject({ title: "Trust", questions: 1 });
  });
});

describe("what is graded is what was stored (§6)", () => {
  it("answers PUTs racing a grade are either refused (409) or part of the grade, over many trials", async () => {
    const quiz = await quizWith([{ type: "true_false", prompt: "T?", correct: true }]);
    const userId = await user();
    const outcomes = { written: 0, refused: 0 };
    const trials = 40;
    // Staggered starts (in microtask turns, then in milliseconds), so that reads and writes of
    // the requests interleave differently from trial to trial.
    const staggered = async (turns: number) => {
      if (turns >= 40) return new Promise((resolve) => setTimeout(resolve, turns - 40));
      for (let i = 0; i < turns; i++) await Promise.resolve();
    };
    for (let trial = 0; trial < trials; trial++) {
      const sub = await call(`/v1/quizzes/${quiz.id}/submissions`, {
        body: { user_id: userId, answers: [{ question_id: quiz.ids[0], response: false }] },
      });
      expect(sub.status).toBe(201);
      const puts = Array.from({ length: 6 }, (_, i) =>
        staggered([0, 3, 8, 20, 40, 41][(i + trial) % 6]!).then(() =>
          call(`/v1/submissions/${sub.json.id}/answers`, {
            method: "PUT",
            body: { answers: [{ question_id: quiz.ids[0], response: i % 2 === 0 }] },
          }),
        ),
      );
      const grade = staggered([0, 5, 10, 30, 40, 41, 42][trial % 7]!).then(() =>
        call(`/v1/submissions/${sub.json.id}/grade`, { method: "POST" }),
      );
      const [graded, ...written] = await Promise.all([grade, ...puts]);
      expect(graded.status).toBe(200);
      for (const res of written) {
        if (res.status === 200) outcomes.written++;
        else {
          expectProblem(res, 409, "submission_graded");
          outcomes.refused++;
        }
      }
      // The last answers write answered 200 is what is stored; the grade must be of exactly that.
      const stored = await call(`/v1/submissions/${sub.json.id}`);
      const expected = stored.json.answers[0]!.response === true ? 100 : 0;
      expect(graded.json.score, `trial ${trial}: the grade is not of the stored answers`).toBe(expected);
      const results = await call(`/v1/submissions/${sub.json.id}/results`);
      expect(results.json.answers[0]!.response).toBe(stored.json.answers[0]!.response);
    }
    expect(outcomes.written + outcomes.refused).toBe(trials * 6);
  }, 60_000);
});

describe("bounded rows (§6)", () => {
  it("a short-text response of 1 000 001 characters → 400, and of 1 001 → 400, and of 1 000 → 201", async () => {
    const quiz = await quizWith([{ type: "short_text", prompt: "Say", accepted_answers: ["x"] }]);
    const userId = await user();
    for (const [length, status] of [
      [1_000_001, 400],
      [1_001, 400],
      [1_000, 201],
    ] as const) {
      const res = await call(`/v1/quizzes/${quiz.id}/submissions`, {
        body: { user_id: userId, answers: [{ question_id: quiz.ids[0], response: "y".repeat(length) }] },
      });
      expect(res.status, `${length} characters`).toBe(status);
      if (status === 400) expect(expectProblem(res, 400).errors?.[0]?.path).toBe("answers[0].response");
    }
  });

  it("choice responses hold only the question's option ids, without repeats", async () => {
    const quiz = await quizWith([
      { type: "single_choice", prompt: "One", options: [{ text: "A" }, { text: "B" }], correct_option_id: "a" },
      { type: "multiple_choice", prompt: "Some", options: [{ text: "A" }, { text: "B" }], correct_option_ids: ["a"] },
    ]);
    const userId = await user();
    const submit = (answers: unknown[]) => call(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: userId, answers } });
    expectProblem(await submit([{ question_id: quiz.ids[0], response: "z" }]), 400, "validation_failed");
    expectProblem(await submit([{ question_id: quiz.ids[1], response: ["a", "a"] }]), 400, "validation_failed");
    expectProblem(await submit([{ question_id: quiz.ids[1], response: ["a", "x".repeat(64)] }]), 400, "validation_failed");
    expect(
      (
        await submit([
          { question_id: quiz.ids[0], response: "b" },
          { question_id: quiz.ids[1], response: ["b", "a"] },
        ])
      ).status,
    ).toBe(201);
  });

  it("the worst-case quiz's graded submission row stays under D1's 1 000 000 bytes", async () => {
    // 200 short-text questions (the most a quiz holds), each with long feedback and explanation,
    // answered with 1 000 characters that take 3 bytes each in UTF-8 and quote marks that JSON
    // escapes: the largest answers row a submission can have.
    const long = "é".repeat(2_000);
    const question = {
      type: "short_text",
      prompt: "p".repeat(10_000),
      accepted_answers: Array.from({ length: 20 }, (_, i) => `${"ü".repeat(900)}${i}`),
      explanation: long,
      feedback: { correct: long, incorrect: long },
    };
    const created = await call("/v1/quizzes", { body: { title: "Worst case" } });
    const quizId = created.json.id as string;
    const ids: string[] = [];
    for (let i = 0; i < 200; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, () => call(`/v1/quizzes/${quizId}/questions`, { body: question })),
      );
      for (const res of batch) {
        expect(res.status).toBe(201);
        ids.push(res.json.id);
      }
    }
    const response = `"${"語".repeat(998)}"`;
    const userId = await user();
    const sub = await call(`/v1/quizzes/${quizId}/submissions`, {
      body: { user_id: userId, answers: ids.map((question_id) => ({ question_id, response })) },
    });
    expect(sub.status).toBe(201);
    expect((await call(`/v1/submissions/${sub.json.id}/grade`, { method: "POST" })).status).toBe(200);
    const row = await env.DB.prepare(
      `SELECT length(CAST(id AS BLOB)) + length(CAST(quiz_id AS BLOB)) + length(CAST(user_id AS BLOB))
        + length(CAST(answers AS BLOB)) + length(CAST(coalesce(results, '') AS BLOB))
        + length(CAST(coalesce(feedback, '') AS BLOB)) + length(CAST(coalesce(grade_token, '') AS BLOB)) + 200 AS bytes
       FROM submissions WHERE id = ?`,
    )
      .bind(sub.json.id)
      .first<{ bytes: number }>();
    expect(row!.bytes).toBeGreaterThan(600_000);
    expect(row!.bytes).toBeLessThan(1_000_000);
    // The results still show everything, read from the question versions.
    const results = await call(`/v1/submissions/${sub.json.id}/results`);
    expect(results.json.answers).toHaveLength(200);
    expect(results.json.answers[0]).toMatchObject({ explanation: long, feedback: long, question_version: 1 });
  }, 120_000);
});

describe("refusal is cheap (§6)", () => {
  it("an IP over its per-IP budget is refused before its unknown credential is looked up in KV or D1", async () => {
    const vars = { ANONYMOUS_RATE_LIMIT_REQUESTS: "3", ANONYMOUS_RATE_LIMIT_WINDOW_SECONDS: "60" };
    const next = windowStart(Date.now(), 60) + 60_000;
    if (next - Date.now() < 2_000) await new Promise((resolve) => setTimeout(resolve, next - Date.now() + 20));
    const counting = countingEnv({ ...env, ...vars });
    const ip = `203.0.113.${n++ % 250}`;
    const send = async (authorization: string) => {
      const ctx = createExecutionContext();
      const response = await app.fetch(
        new Request(`${BASE}/v1/quizzes`, { headers: { authorization, "cf-connecting-ip": ip } }),
        counting.env,
        ctx,
      );
      await response.text();
      background.push(waitOnExecutionContext(ctx));
      return response.status;
    };
    for (let i = 0; i < 3; i++) expect(await send(`Bearer qz_at_guessed-token-number-${i}`)).toBe(401);
    const { key } = await seedApiKey(["quizzes:read"]);
    counting.reset();
    expect(await send(`Bearer ${key}`)).toBe(429);
    expect(await send("Bearer qz_at_another-guess")).toBe(429);
    const lookups = counting.log.filter((c) => c.kind === "d1" || (c.kind === "kvReads" && !c.detail.startsWith("v1:rl:")));
    expect(lookups).toEqual([]);
  });
});
