// The grade's own D1 work, per submission, for the bare worker that runs it (bench/grade-sql-worker.ts):
// the read's three statements as the app sends them, and the write batch src/grading/grade.ts
// plans for that submission (planGrade, the function the app's grade calls), with its answer.
// Planned in Node against a D1 stand-in that only records what is prepared and bound: nothing
// runs here, the worker runs it.
import { asc, eq, inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { LocalWorker } from "../scripts/local-worker";
import { questions, quizzes, submissions } from "../src/db/schema";
import { tableRows } from "../src/db/statements";
import type { Database } from "../src/env";
import { gradeResponse, planGrade } from "../src/grading/grade";
import { request } from "./http";
import { benchDb } from "./seed-bench";
import type { Statement } from "./sql-client";

export const GRADE_SQL_HOST = "grade-sql.bench";

/**
 * The grade's read, as src/grading/grade.ts writes it (constant text over the submission's id).
 * The bench checks through the counting worker that the app still prepares exactly these.
 */
export const GRADE_READ_SQL = [
  `SELECT ${tableRows(submissions).columns} FROM submissions WHERE id = ?1`,
  "SELECT settings FROM quizzes WHERE id = (SELECT quiz_id FROM submissions WHERE id = ?1)",
  `SELECT ${tableRows(questions).columns} FROM questions WHERE quiz_id = (SELECT quiz_id FROM submissions WHERE id = ?1) ORDER BY position`,
];

/** A D1 binding that runs nothing: a statement is the text prepared and the values bound. */
const recorder = {
  prepare: (sql: string) => ({ bind: (...params: unknown[]): Statement => ({ sql, params }) }),
};
const planning = drizzle(recorder as unknown as D1Database) as Database;

/** Plans per request of the setup: a few MB each. */
const PLANS_PER_UPLOAD = 250;
const READ_CHUNK = 90;

/**
 * Plans the grade of every submission in `ids` (open, as seeded) and hands the plans to the
 * grade-SQL worker. Returns the bytes of statements handed over per plan, on average.
 */
export async function handOverGradePlans(worker: LocalWorker, ids: string[]): Promise<{ plans: number; bytesPerPlan: number }> {
  const db = await benchDb(worker);
  let bytes = 0;
  let handed = 0;
  const questionsByQuiz = new Map<string, (typeof questions.$inferSelect)[]>();
  const settingsByQuiz = new Map<string, (typeof quizzes.$inferSelect)["settings"]>();
  for (let from = 0; from < ids.length; from += PLANS_PER_UPLOAD) {
    const plans: { id: string; statements: Statement[]; answer: string }[] = [];
    const slice = ids.slice(from, from + PLANS_PER_UPLOAD);
    for (let at = 0; at < slice.length; at += READ_CHUNK) {
      const rows = await db
        .select()
        .from(submissions)
        .where(inArray(submissions.id, slice.slice(at, at + READ_CHUNK)));
      for (const row of rows) {
        if (!questionsByQuiz.has(row.quizId)) {
          questionsByQuiz.set(
            row.quizId,
            await db.select().from(questions).where(eq(questions.quizId, row.quizId)).orderBy(asc(questions.position)),
          );
          const [quiz] = await db.select({ settings: quizzes.settings }).from(quizzes).where(eq(quizzes.id, row.quizId));
          if (!quiz) throw new Error(`no quiz ${row.quizId}`);
          settingsByQuiz.set(row.quizId, quiz.settings);
        }
        const { closed, statements } = planGrade(
          planning,
          row,
          settingsByQuiz.get(row.quizId) as (typeof quizzes.$inferSelect)["settings"],
          questionsByQuiz.get(row.quizId) ?? [],
          "request",
        );
        const recorded = statements as unknown as Statement[];
        bytes += recorded.reduce((n, s) => n + s.sql.length + JSON.stringify(s.params).length, 0);
        plans.push({ id: row.id, statements: recorded, answer: JSON.stringify(gradeResponse(closed)) });
      }
    }
    const res = await request(worker.url, {
      method: "POST",
      path: "/__bench/plans",
      headers: { host: GRADE_SQL_HOST, "content-type": "application/json" },
      body: JSON.stringify({ read: GRADE_READ_SQL, plans }),
    });
    if (res.status !== 200) throw new Error(`handing over grade plans → ${res.status}: ${res.text.slice(0, 300)}`);
    handed = (res.json as { plans: number }).plans;
  }
  return { plans: handed, bytesPerPlan: ids.length ? bytes / ids.length : 0 };
}
