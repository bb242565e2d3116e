import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../../src/app";
import { ANSWER_COLUMNS, exportPageRows, SUBMISSION_COLUMNS } from "../../../src/domain/results-export";
import { BASE, call, defaultKey, expectProblem, seedApiKey } from "../../support/call";
import {
  csvCell,
  csvObjects,
  csvRows,
  exported,
  exportPath,
  grade,
  ndjsonRows,
  newUser,
  ok,
  pageNoting,
  seedGraded,
  submit,
} from "./results-export.fixtures";

/**
 * GET /v1/quizzes/{id}/results/export (docs/api.md): every column equals what the API answers
 * for the same submission (its results, the submission, the kept grade), in CSV read back by a
 * real parser and in NDJSON line by line; the refusals; rows in (created_at, id) order across
 * pages read one at a time. `kept` under every policy and `since`: results-export.kept.test.ts.
 */

const SECRETS = ["Lutetia", "EXPLAIN-SECRET", "FEEDBACK-SECRET"];
const QUESTIONS = [
  { type: "short_text", prompt: "Capital?", accepted_answers: ["Lutetia"], explanation: "EXPLAIN-SECRET" },
  {
    type: "multiple_choice",
    prompt: "Pick",
    points: 2,
    scoring: "partial",
    options: [
      { id: "a", text: "A" },
      { id: "b", text: "B" },
      { id: "c", text: "C" },
    ],
    correct_option_ids: ["a", "c"],
    feedback: { correct: "FEEDBACK-SECRET" },
  },
  { type: "numeric", prompt: "Three?", correct_value: 3 },
  { type: "essay", prompt: "Explain.", points: 2 },
  { type: "true_false", prompt: "True?", correct: true },
];

let quizId: string;
/** The exported submissions, in creation order: graded, needs review, graded with nothing answered. */
let subs: string[];

beforeAll(async () => {
  const quiz = await ok("/v1/quizzes", { title: "Export", questions: QUESTIONS });
  quizId = quiz.id;
  const q = quiz.question_ids as string[];
  const [ada, bob] = [await newUser(), await newUser()];
  const a = (i: number, response: unknown) => ({ question_id: q[i], response });
  subs = [
    await submit(quizId, ada, [a(0, '=1+1, said "Ada"'), a(1, ["a"]), a(2, -3), a(4, true)]),
    await submit(quizId, ada, [a(0, "Paris"), a(1, ["a", "c"]), a(2, 3), a(3, "Line one,\r\nline two"), a(4, false)]),
    await submit(quizId, bob, []),
  ];
  for (const id of subs) await grade(id);
  await submit(quizId, bob, []); // open: not exported
});

describe("GET /v1/quizzes/{id}/results/export", () => {
  it.each([
    ["csv", "submissions", "text/csv; charset=utf-8"],
    ["csv", "answers", "text/csv; charset=utf-8"],
    ["ndjson", "submissions", "application/x-ndjson"],
    ["ndjson", "answers", "application/x-ndjson"],
  ] as const)("%s, %s: 200 %s, saved as an attachment named after the quiz", async (format, shape, type) => {
    const res = await exported(quizId, format, shape);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${quizId}-${shape}.${format}"`);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("submissions: a row per graded or needs-review submission, columns in order, equal to results, submission and kept grade", async () => {
    const csv = await exported(quizId, "csv", "submissions");
    const [header] = csvRows(csv.text);
    expect(header).toEqual([...SUBMISSION_COLUMNS, "q1_points", "q2_points", "q3_points", "q4_points", "q5_points"]);
    const rows = csvObjects(csv.text);
    const lines = ndjsonRows((await exported(quizId, "ndjson", "submissions")).text);
    expect(rows.map((r) => r.submission_id)).toEqual(subs);
    expect(lines.map((l) => Object.keys(l))).toEqual(subs.map(() => header));
    const grades = (await ok(`/v1/quizzes/${quizId}/grades`)).grades as { user_id: string; kept_score: number }[];
    const questions = (await ok(`/v1/quizzes/${quizId}/questions`)).questions as { id: string; position: number }[];
    for (const [i, id] of subs.entries()) {
      const [results, submission] = [await ok(`/v1/submissions/${id}/results`), await ok(`/v1/submissions/${id}`)];
      const points = Object.fromEntries(
        questions.map((q) => [
          `q${q.position}_points`,
          results.answers.find((x) => x.question_id === q.id)?.points_earned ?? null,
        ]),
      );
      const graded = results.status === "graded";
      const expected = {
        submission_id: id,
        user_id: submission.user_id,
        attempt: submission.attempt,
        status: results.status,
        created_at: submission.created_at,
        graded_at: results.graded_at,
        graded_by: results.graded_by,
        score: results.score,
        points_earned: results.points_earned,
        points_possible: results.points_possible,
        // The default policy is highest; each user here has one graded attempt.
        kept: graded && grades.find((g) => g.user_id === submission.user_id)?.kept_score === results.score,
        ...points,
      };
      expect(lines[i]).toEqual(expected);
      expect(rows[i]).toEqual(Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, csvCell(v)])));
    }
    expect(lines[1]).toMatchObject({ status: "needs_review", graded_at: null, kept: false, q4_points: null });
    expect(rows[1]?.graded_at).toBe("");
  });

  it("answers: a row per presented question, equal to the results' answers; nothing of the key", async () => {
    const csv = await exported(quizId, "csv", "answers");
    expect(csvRows(csv.text)[0]).toEqual([...ANSWER_COLUMNS]);
    const rows = csvObjects(csv.text);
    const nd = await exported(quizId, "ndjson", "answers");
    const lines = ndjsonRows(nd.text);
    const expected = [];
    for (const id of subs) {
      const [results, submission] = [await ok(`/v1/submissions/${id}/results`), await ok(`/v1/submissions/${id}`)];
      for (const answer of results.answers)
        expected.push({
          submission_id: id,
          user_id: submission.user_id,
          question_id: answer.question_id,
          position: submission.questions!.find((p) => p.question_id === answer.question_id)!.position,
          type: answer.type,
          question_version: answer.question_version,
          response: answer.response,
          points_earned: answer.points_earned,
          points_possible: answer.points_possible,
          correct: answer.correct,
        });
    }
    expect(lines).toEqual(expected);
    expect(rows).toEqual(expected.map((e) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, csvCell(v)]))));
    // A negative number stays a number; a formula-like string is defused; an unanswered essay is empty.
    expect(rows[2]?.response).toBe("-3");
    expect(rows[0]?.response).toBe(`'=1+1, said "Ada"`);
    expect(rows.filter((r) => r.submission_id === subs[2]).map((r) => r.response)).toEqual(["", "", "", "", ""]);
    for (const body of [csv.text, nd.text]) for (const secret of SECRETS) expect(body).not.toContain(secret);
  });

  it("a question the submission did not present is an empty cell; a question added later too", async () => {
    const pooled = [1, 2].map((i) => ({ type: "true_false", prompt: `P${i}?`, correct: true, pool: "p" }));
    const quiz = await ok("/v1/quizzes", {
      title: "Pools",
      questions: [{ type: "true_false", prompt: "Always?", correct: true }, ...pooled],
      settings: { pools: [{ pool: "p", pick: 1 }] },
    });
    const id = await submit(quiz.id, await newUser(), []);
    await grade(id);
    await ok(`/v1/quizzes/${quiz.id}/questions`, { type: "true_false", prompt: "Later?", correct: true });
    const presented = (await ok(`/v1/submissions/${id}`)).questions!.map((p) => p.question_id);
    const [row] = ndjsonRows((await exported(quiz.id, "ndjson", "submissions")).text);
    const cells = [1, 2, 3, 4].map((p) => row?.[`q${p}_points`]);
    expect(cells).toEqual([0, ...[1, 2].map((i) => (presented.includes(quiz.question_ids[i]!) ? 0 : null)), null]);
    expect(cells.filter((c) => c === null)).toHaveLength(2);
  });
});

describe("refusals", () => {
  it.each([
    ["format=xlsx&shape=submissions", "format"],
    ["format=csv&shape=rows", "shape"],
    ["shape=submissions", "format"],
    ["format=csv", "shape"],
    ["format=csv&shape=answers&since=yesterday", "since"],
    ["format=csv&shape=answers&since=2031-13-01T00:00:00Z", "since"],
    ["format=csv&shape=answers&limit=10", "limit"],
  ])("400 for ?%s, naming %s", async (query, field) => {
    const problem = expectProblem(await call(`/v1/quizzes/${quizId}/results/export?${query}`), 400, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toContain(`query.${field}`);
  });

  it("404 for an unknown quiz or an id of the wrong shape; 403 without submissions:read", async () => {
    expectProblem(await call(exportPath("quiz_01kamz3f7c9n0p8s6e5vwx2y4r", "csv", "answers")), 404, "not_found");
    expectProblem(await call(exportPath("sub_01kamz3f7c9n0p8s6e5vwx2y4r", "csv", "answers")), 404);
    const reader = await seedApiKey(["quizzes:read", "analytics:read"]);
    expectProblem(await call(exportPath(quizId, "csv", "answers"), { auth: reader.key }), 403, "insufficient_scope");
  });
});

describe("order and pages", () => {
  it("rows in (created_at, id) order across pages, each page read only once the reader took the one before", async () => {
    // Three essays make a row's bound large: pages of 100 (the least), so 250 rows take three.
    const essays = [1, 2, 3].map((i) => ({ type: "essay", prompt: `E${i}?` }));
    const quiz = await ok("/v1/quizzes", {
      title: "Pages",
      questions: [...essays, { type: "true_false", prompt: "T?", correct: true }],
    });
    const pageRows = exportPageRows(3 * 66_264 + 265);
    expect(pageRows).toBe(100);
    // created_at disagrees with the id order, and each instant is shared by two rows (ties broken by id).
    await seedGraded(quiz.id, quiz.question_ids, 250, {
      users: 50,
      createdAt: "strftime('%Y-%m-%dT%H:%M:%fZ', 1956528000 + (i * 37) % 125, 'unixepoch')",
    });
    const pages: number[] = [];
    let delivered = 0;
    const held: number[] = [];
    const db = pageNoting(env.DB, (rows) => {
      pages.push(rows);
      held.push(pages.reduce((s, n) => s + n, 0) - delivered);
    });
    const res = await app.fetch(
      new Request(`${BASE}${exportPath(quiz.id, "ndjson", "submissions")}`, {
        headers: { authorization: `Bearer ${await defaultKey()}` },
      }),
      { ...env, DB: db },
      createExecutionContext(),
    );
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const keys: [string, string][] = [];
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const lines = ndjsonRows(decoder.decode(chunk.value));
      delivered += lines.length;
      for (const l of lines) keys.push([l.created_at as string, l.submission_id as string]);
      // A slow reader: a stream that read ahead would fetch more pages meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(pages).toEqual([100, 100, 50]);
    expect(Math.max(...held)).toBe(pageRows);
    const sorted = [...keys].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1));
    expect(keys).toEqual(sorted);
    expect(new Set(keys.map(([, id]) => id)).size).toBe(250);
    expect(keys.map(([, id]) => id)).not.toEqual([...keys.map(([, id]) => id)].sort());
  });
});
