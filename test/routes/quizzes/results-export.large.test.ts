import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { parse } from "csv-parse/browser/esm/sync";
import { expect, it } from "vitest";
import { app } from "../../../src/app";
import { exportPageRows, SUBMISSION_COLUMNS } from "../../../src/domain/results-export";
import { BASE, call, defaultKey } from "../../support/call";
import { exportPath, pageNoting, seedGraded } from "./results-export.fixtures";

/**
 * 100 000 submissions, seeded with SQL, export in one response, in (created_at, id) order, while
 * the worker holds at most one page of rows: workerd does not show an isolate's heap to the code
 * it runs (no performance.memory, no process.memoryUsage without nodejs_compat), so what is
 * measured is what the worker holds — the rows D1 has handed it (each page's answer, noted by a
 * wrapped binding) less the rows the reader has taken — at every page, and how many bytes each
 * chunk carries. bench/suite-export.ts measures the process's memory from outside.
 */

const COUNT = 100_000;
const QUESTIONS = 4;

it(`exports ${COUNT.toLocaleString("en")} submissions in one response, in order, holding one page at a time`, async () => {
  const tf = Array.from({ length: QUESTIONS }, (_, i) => ({ type: "true_false", prompt: `S${i}?`, correct: true }));
  const quiz = await call("/v1/quizzes", { body: { title: "At scale", questions: tf } });
  expect(quiz.status, quiz.text).toBe(201);
  // created_at disagrees with the id order, and every instant is shared by two rows (ties broken by id).
  await seedGraded(quiz.json.id, quiz.json.question_ids, COUNT, {
    users: 10_000,
    createdAt: `strftime('%Y-%m-%dT%H:%M:%fZ', 1956528000 + (i * 7919) % ${COUNT / 2}, 'unixepoch')`,
  });
  const answerBytes = await env.DB.prepare("SELECT sum(answer_bytes) AS b FROM questions WHERE quiz_id = ?")
    .bind(quiz.json.id)
    .first<{ b: number }>();
  const pageRows = exportPageRows(answerBytes?.b ?? 0);
  expect(pageRows).toBe(1000);

  const pages: number[] = [];
  const held: number[] = [];
  let delivered = 0;
  const db = pageNoting(env.DB, (rows) => {
    pages.push(rows);
    held.push(pages.reduce((s, n) => s + n, 0) - delivered);
  });
  const started = performance.now();
  const res = await app.fetch(
    new Request(`${BASE}${exportPath(quiz.json.id, "csv", "submissions")}`, {
      headers: { authorization: `Bearer ${await defaultKey()}` },
    }),
    { ...env, DB: db },
    createExecutionContext(),
  );
  expect(res.status).toBe(200);

  // Read as a client would, chunk by chunk, keeping only the last key: each chunk is whole records.
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const chunkBytes: number[] = [];
  let header: string[] | undefined;
  let last: [string, string] = ["", ""];
  let outOfOrder = 0;
  const users = new Set<string>();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    chunkBytes.push(chunk.value.length);
    const records = parse(decoder.decode(chunk.value), { record_delimiter: "\r\n" }) as string[][];
    if (!header) {
      header = records.shift();
      expect(header).toEqual([...SUBMISSION_COLUMNS, "q1_points", "q2_points", "q3_points", "q4_points"]);
    }
    for (const [id = "", user = "", , , createdAt = ""] of records) {
      if (createdAt < last[0] || (createdAt === last[0] && id <= last[1])) outOfOrder++;
      last = [createdAt, id];
      users.add(user);
    }
    delivered += records.length;
  }
  const seconds = (performance.now() - started) / 1000;

  expect(delivered).toBe(COUNT);
  expect(outOfOrder).toBe(0);
  expect(users.size).toBe(10_000);
  // One page read per chunk of rows, none ahead of the reader: never more than one page held.
  expect(pages).toEqual([...Array<number>(COUNT / pageRows).fill(pageRows), 0]);
  expect(Math.max(...held)).toBe(pageRows);
  // Flat: every page's chunk is about the same size (the header comes alone, first).
  const pageChunks = chunkBytes.slice(1);
  expect(pageChunks).toHaveLength(COUNT / pageRows);
  expect(Math.max(...pageChunks)).toBeLessThan(1.2 * Math.min(...pageChunks));
  console.log(
    `results export: ${COUNT} submissions in ${seconds.toFixed(1)} s (${Math.round(COUNT / seconds)} rows/s); ` +
      `${pages.length} page queries of ${pageRows}; chunks ${Math.min(...pageChunks)}–${Math.max(...pageChunks)} bytes; most rows held ${Math.max(...held)}`,
  );
}, 600_000);
