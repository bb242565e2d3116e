import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, type KnownPath } from "../support/call";
import { answersFor, ITEM_QUESTIONS } from "../support/item-fixtures";

/**
 * Migration 0011 moves item analysis's sums from a row per question and option (item_stats,
 * item_totals, item_option_counts, question_stats) into one item_sums row per quiz and population.
 * Here the old tables are built as migrations 0000, 0004 and 0009 built them from graded
 * submissions, the migration's data-moving statement runs, and every figure the API answers from
 * the moved rows equals what it answered from the rows grading wrote.
 */

/** A migration's SQL as one text (its statements as the pool read them, in order). */
const migration = (tag: string) => (env.TEST_MIGRATIONS.find((m) => m.name.includes(tag))?.queries ?? []).join(";\n");
/** The statement of `text` that starts with `start`, to its semicolon (none of these holds one in a string). */
const find = (text: string, start: string) => {
  const at = text.indexOf(start);
  if (at < 0) throw new Error(`no statement starting ${start}`);
  const end = text.indexOf(";", at);
  return text.slice(at, end < 0 ? undefined : end);
};

/** The old tables as the migrations left them before 0011, filled from the graded submissions. */
async function oldTables() {
  const init = migration("0000_");
  const regrade = migration("0004_");
  const distractors = migration("0009_");
  const ddl = [
    find(init, "CREATE TABLE `question_stats`"),
    find(regrade, "CREATE TABLE `item_stats`"),
    find(regrade, "CREATE TABLE `item_totals`"),
    find(regrade, "CREATE TABLE `item_option_counts`"),
    find(distractors, "ALTER TABLE `item_option_counts`"),
  ];
  const fill = [
    `INSERT INTO question_stats (quiz_id, question_id, attempts, correct_count, points_earned_micro)
     SELECT s.quiz_id, json_extract(r.value, '$.question_id'), count(*), sum(json_extract(r.value, '$.correct')),
       sum(CAST(round(json_extract(r.value, '$.points_earned') * 1000000) AS INTEGER))
     FROM submissions s, json_each(s.results) r WHERE s.status = 'graded' GROUP BY 1, 2`,
    find(regrade, "INSERT INTO `item_stats`"),
    find(regrade, "INSERT INTO `item_totals`"),
    find(regrade, "INSERT INTO `item_option_counts`"),
    find(distractors, "UPDATE `item_option_counts`"),
  ];
  for (const text of [...ddl, ...fill]) await env.DB.prepare(text).run();
}

async function figures(quizId: string) {
  const read = async <P extends KnownPath>(path: P) => {
    const res = await call(path);
    expect(res.status, res.text).toBe(200);
    return res.json;
  };
  return {
    quiz: await read(`/v1/analytics/quiz/${quizId}`),
    all: await read(`/v1/analytics/quiz/${quizId}/items?attempts=all`),
    first: await read(`/v1/analytics/quiz/${quizId}/items?attempts=first`),
  };
}

describe("migration 0011: item analysis's sums in one row per quiz and population", () => {
  it("moves every figure unchanged: items, options, right answers, both populations, deleted questions", async () => {
    const quiz = await call("/v1/quizzes", { body: { title: "Moved", questions: [...ITEM_QUESTIONS, ...ITEM_QUESTIONS] } });
    expect(quiz.status, quiz.text).toBe(201);
    const quizId = quiz.json.id as string;
    const questionIds = quiz.json.question_ids as string[];
    for (let u = 0; u < 5; u++) {
      const user = await call("/v1/users", { body: { name: "M", email: `${crypto.randomUUID()}@example.com` } });
      // Later attempts graded first for some users, so that "first" changed hands along the way.
      const subs: string[] = [];
      for (let a = 0; a < 1 + (u % 3); a++) {
        const picks = questionIds.map((_, i) => (u * 7 + a * 3 + i) % 5);
        const sub = await call(`/v1/quizzes/${quizId}/submissions`, {
          body: { user_id: user.json.id, answers: answersFor(questionIds, picks) },
        });
        expect(sub.status, sub.text).toBe(201);
        subs.push(sub.json.id);
      }
      for (const id of u % 2 === 0 ? subs.reverse() : subs)
        expect((await call(`/v1/submissions/${id}/grade`, { method: "POST" })).status).toBe(200);
    }
    const removed = await call(`/v1/quizzes/${quizId}/questions/${questionIds[1]}`, { method: "DELETE" });
    expect(removed.status, removed.text).toBe(204);
    const before = await figures(quizId);

    await env.DB.prepare("DELETE FROM item_sums").run();
    await oldTables();
    await env.DB.prepare(find(migration("0011_"), "INSERT INTO `item_sums`")).run();
    for (const table of ["item_option_counts", "item_stats", "item_totals", "question_stats"])
      await env.DB.prepare(`DROP TABLE ${table}`).run();

    expect(await figures(quizId)).toEqual(before);
  });
});
