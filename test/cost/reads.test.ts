import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { countingEnv } from "../support/binding-counter";
import { BASE, call, seedApiKey } from "../support/call";

/**
 * What the hot reads cost in binding calls and in the rows D1 bills, with a warm API key, up to
 * the response (the bench prices these, and the credential's after-response work: docs/performance.md). A page of quizzes reads one row per quiz however
 * many questions they have: each quiz row keeps its question count.
 */

const QUIZZES = 25;
const QUESTIONS = 20;
let key: string;
let quizIds: string[];

beforeAll(async () => {
  ({ key } = await seedApiKey(["quizzes:read"]));
  quizIds = [];
  for (let q = 0; q < QUIZZES; q++) {
    const questions = Array.from({ length: QUESTIONS }, (_, i) => ({ type: "true_false", prompt: `Q${i}`, correct: true }));
    const res = await call("/v1/quizzes", { body: { title: `Cost ${q}`, questions } });
    expect(res.status, res.text).toBe(201);
    quizIds.push(res.json.id);
  }
});

async function measured(path: string) {
  const counted = countingEnv(env);
  const send = async () => {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${key}` } }), counted.env, ctx);
    const body = await res.json<any>();
    // Before the after-response work (a usage flush this request may have scheduled).
    const counts = { ...counted.counts };
    const rows = { ...counted.rows };
    await waitOnExecutionContext(ctx);
    return { status: res.status, body, counts, rows };
  };
  await send(); // warms the key and the rate-limit counter in this isolate
  counted.reset();
  return send();
}

describe("what the hot reads cost", { timeout: 30_000 }, () => {
  it("GET /v1/quizzes?limit=20: one D1 query reading one row per quiz of the page (+1), no KV call", async () => {
    const page = await measured("/v1/quizzes?limit=20");
    expect(page.status).toBe(200);
    expect(page.body.quizzes).toHaveLength(20);
    expect(page.body.quizzes.every((q: { questions: number }) => q.questions === QUESTIONS)).toBe(true);
    expect(page.counts).toMatchObject({ d1: 1, kvReads: 0, kvWrites: 0 });
    // 21 quiz rows (the page and one more to know there is a next page); the questions' 400
    // index entries are not read. A little slack for what SQLite counts of the primary key walk.
    expect(page.rows.read).toBeGreaterThanOrEqual(20);
    expect(page.rows.read).toBeLessThanOrEqual(22);
    expect(page.rows.written).toBe(0);
  });

  it("GET /v1/quizzes/{id}: one D1 query reading one row", async () => {
    const one = await measured(`/v1/quizzes/${quizIds[3]}`);
    expect(one.status).toBe(200);
    expect(one.body.questions).toBe(QUESTIONS);
    expect(one.counts).toMatchObject({ d1: 1, kvReads: 0, kvWrites: 0 });
    expect(one.rows).toEqual({ read: 1, written: 0 });
  });
});
