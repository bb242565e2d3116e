import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { countingEnv } from "../support/binding-counter";
import { BASE, call, seedApiKey } from "../support/call";

/**
 * What one one-answer save costs, with a warm API key, up to the response (docs/performance.md,
 * "Saving one answer"): two D1 round trips — the read that checks the question and the response,
 * then one batch holding the one conditional UPDATE and the read of what is stored — and one row
 * written when the answer lands, none when it is stale or refused. The same whatever the number
 * of questions the submission holds answers to.
 */

async function quizWith(questions: number) {
  const body = {
    title: `Saves ${questions}`,
    questions: Array.from({ length: questions }, (_, i) => ({ type: "short_text", prompt: `Q${i}?`, accepted_answers: ["x"] })),
  };
  const quiz = await call("/v1/quizzes", { body });
  expect(quiz.status, quiz.text).toBe(201);
  const user = await call("/v1/users", { body: { name: "S", email: `${crypto.randomUUID()}@example.com` } });
  const questionIds = quiz.json.question_ids as string[];
  const answers = questionIds.map((question_id) => ({ question_id, response: "y".repeat(500) }));
  const sub = await call(`/v1/quizzes/${quiz.json.id}/submissions`, { body: { user_id: user.json.id, answers } });
  expect(sub.status, sub.text).toBe(201);
  return { id: sub.json.id as string, questionIds };
}

describe("what a one-answer save costs", { timeout: 30_000 }, () => {
  it("lands: 2 D1 round trips (2 + 2 statements), 1 row written, no KV write; stale or refused: the same trips, 0 rows", async () => {
    const { key } = await seedApiKey(["submissions:write"]);
    const counted = countingEnv(env);
    const send = async (path: string, body: unknown) => {
      const ctx = createExecutionContext();
      const res = await app.fetch(
        new Request(`${BASE}${path}`, {
          method: "PUT",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        counted.env,
        ctx,
      );
      const json = await res.json<{ stale?: boolean; code?: string }>();
      const measured = {
        status: res.status,
        json,
        counts: { ...counted.counts },
        rows: { ...counted.rows },
        log: [...counted.log],
      };
      await waitOnExecutionContext(ctx);
      counted.reset();
      return measured;
    };

    const written: number[] = [];
    for (const size of [1, 20, 200]) {
      const { id, questionIds } = await quizWith(size);
      const path = `/v1/submissions/${id}/answers/${questionIds.at(-1)}`;
      const seq = Date.now() + 60_000;
      await send(path, { response: "warm", seq }); // warms the key and the rate-limit counter in this isolate
      counted.reset();

      const landed = await send(path, { response: "z", seq: seq + 1 });
      expect(landed.status).toBe(200);
      expect(landed.json.stale).toBe(false);
      expect(landed.counts).toMatchObject({ d1: 2, kvWrites: 0 });
      expect(landed.log.filter((c) => c.kind === "d1").map((c) => c.statements)).toEqual([2, 2]);
      expect(landed.rows.written).toBe(1);
      written.push(landed.rows.written);

      const stale = await send(path, { response: "old", seq });
      expect(stale.status).toBe(200);
      expect(stale.json.stale).toBe(true);
      expect(stale.counts).toMatchObject({ d1: 2, kvWrites: 0 });
      expect(stale.rows.written).toBe(0);
    }
    expect(written).toEqual([1, 1, 1]);

    // Refused by its read (graded): one round trip, nothing written.
    const { id, questionIds } = await quizWith(3);
    expect((await call(`/v1/submissions/${id}/grade`, { method: "POST" })).status).toBe(200);
    const refused = await send(`/v1/submissions/${id}/answers/${questionIds[0]}`, { response: "z", seq: Date.now() + 60_000 });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe("submission_graded");
    expect(refused.counts).toMatchObject({ d1: 1, kvWrites: 0 });
    expect(refused.rows.written).toBe(0);
  });
});
