// Data for the analytics read (issue 4): two quizzes with the same questions' shape, one with
// 100 graded submissions and one with 100 000, really in the submissions table, with the
// aggregates rebuilt from them. Rows are made inside D1 by one INSERT … SELECT per chunk over a
// recursive counter: each row takes one of a few hundred answer patterns, every pattern graded
// in Node by the project's grading engine, so rows, results and aggregates agree.
import type { LocalWorker } from "../scripts/local-worker";
import { rebuildAggregates } from "./aggregates";
import { answersFor, quizInput, seededRandom } from "./fixtures";
import { ok } from "./http";
import { benchDb, gradedRow, insertUsers, loadQuizzes, timed } from "./seed-bench";
import { SqlClient, type Statement } from "./sql-client";

export interface AnalyticsSizes {
  small: number;
  large: number;
  users: number;
  questionsPerQuiz: number;
  /** Distinct graded answer sets the rows are drawn from. */
  patterns: number;
}

export const ANALYTICS_SIZES: AnalyticsSizes = { small: 100, large: 100_000, users: 10_000, questionsPerQuiz: 10, patterns: 256 };

/** Rows per INSERT … SELECT: each statement stays a few seconds of work at most. */
const ROWS_PER_STATEMENT = 20_000;
/** 2 bound values a row: 49 rows per statement under D1's 100. */
const USER_INDEX_ROWS_PER_INSERT = 49;
const PATTERN_ROWS_PER_INSERT = 12;

export interface AnalyticsData {
  small: { quizId: string; submissions: number };
  large: { quizId: string; submissions: number };
  timings: Record<string, number>;
}

const SCRATCH = ["bench_users", "bench_patterns"];

export async function seedAnalytics(worker: LocalWorker, adminKey: string, sizes = ANALYTICS_SIZES): Promise<AnalyticsData> {
  const timings: Record<string, number> = {};
  const db = await benchDb(worker);
  const sql = new SqlClient(worker.url);
  const headers = { authorization: `Bearer ${adminKey}`, "content-type": "application/json" };
  const createQuiz = async (n: number) =>
    (
      await ok<{ id: string }>(worker.url, {
        method: "POST",
        path: "/v1/quizzes",
        headers,
        body: JSON.stringify(quizInput(n, sizes.questionsPerQuiz, "Analytics quiz")),
      })
    ).id;

  const [smallId, largeId] = [await createQuiz(1), await createQuiz(2)] as [string, string];
  const userIds = await timed(timings, `${sizes.users} users (SQL)`, () =>
    insertUsers(db, sql, sizes.users, "analytics-student"),
  );

  await timed(timings, `${sizes.small} + ${sizes.large} graded submissions (SQL)`, async () => {
    const quizData = await loadQuizzes(db, [smallId, largeId]);
    const statements: Statement[] = SCRATCH.map((t) => ({ sql: `DROP TABLE IF EXISTS ${t}`, params: [] }));
    statements.push(
      { sql: "CREATE TABLE bench_users (n INTEGER PRIMARY KEY, id TEXT NOT NULL)", params: [] },
      {
        sql: `CREATE TABLE bench_patterns (quiz_id TEXT NOT NULL, k INTEGER NOT NULL, answers TEXT NOT NULL, score REAL NOT NULL,
          points_earned REAL NOT NULL, points_possible REAL NOT NULL, feedback TEXT, results TEXT NOT NULL, PRIMARY KEY (quiz_id, k))`,
        params: [],
      },
    );
    for (let i = 0; i < userIds.length; i += USER_INDEX_ROWS_PER_INSERT) {
      const ids = userIds.slice(i, i + USER_INDEX_ROWS_PER_INSERT);
      statements.push({
        sql: `INSERT INTO bench_users (n, id) VALUES ${ids.map(() => "(?, ?)").join(", ")}`,
        params: ids.flatMap((id, j) => [i + j, id]),
      });
    }
    // The patterns: answer sets of users of every skill, each graded by the engine.
    const random = seededRandom(2026);
    for (const quizId of [smallId, largeId]) {
      const quiz = quizData.get(quizId);
      if (!quiz) throw new Error(`no questions for ${quizId}`);
      const patterns = Array.from({ length: sizes.patterns }, (_, k) => {
        const row = gradedRow(
          {
            id: "",
            quizId,
            userId: "",
            attempt: 0,
            status: "open",
            answers: answersFor(quiz.questions, 0.15 + 0.8 * random(), random),
            createdAt: "",
            updatedAt: "",
          },
          quiz,
          "",
        );
        return [
          quizId,
          k,
          JSON.stringify(row.answers),
          row.score,
          row.pointsEarned,
          row.pointsPossible,
          row.feedback ?? null,
          JSON.stringify(row.results),
        ];
      });
      for (let i = 0; i < patterns.length; i += PATTERN_ROWS_PER_INSERT) {
        const chunk = patterns.slice(i, i + PATTERN_ROWS_PER_INSERT);
        statements.push({
          sql: `INSERT INTO bench_patterns VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
          params: chunk.flat(),
        });
      }
    }
    await sql.run(statements);

    // Ids: "sub_" + a per-quiz prefix + the row number, 26 characters of the ULID alphabet.
    const started = Math.floor(Date.now() / 1000) - 60 * 24 * 3600;
    const generate = (quizId: string, prefix: string, count: number, users: number): Statement[] =>
      Array.from({ length: Math.ceil(count / ROWS_PER_STATEMENT) }, (_, c) => ({
        sql: `INSERT INTO submissions (id, quiz_id, user_id, attempt, status, answers, score, points_earned, points_possible,
            feedback, results, grade_token, created_at, updated_at, graded_at)
          WITH RECURSIVE seq(i) AS (SELECT CAST(?1 AS INTEGER) UNION ALL SELECT i + 1 FROM seq WHERE i + 1 < CAST(?2 AS INTEGER))
          SELECT 'sub_' || ?3 || printf('%012d', seq.i), ?4, u.id, seq.i / CAST(?5 AS INTEGER) + 1, 'graded', p.answers, p.score, p.points_earned,
            p.points_possible, p.feedback, p.results, lower(hex(randomblob(16))),
            strftime('%Y-%m-%dT%H:%M:%fZ', ?6 + seq.i * 30, 'unixepoch'),
            strftime('%Y-%m-%dT%H:%M:%fZ', ?6 + seq.i * 30 + 20, 'unixepoch'),
            strftime('%Y-%m-%dT%H:%M:%fZ', ?6 + seq.i * 30 + 20, 'unixepoch')
          FROM seq JOIN bench_users u ON u.n = seq.i % CAST(?5 AS INTEGER)
          JOIN bench_patterns p ON p.quiz_id = ?4 AND p.k = (seq.i * 7919) % CAST(?7 AS INTEGER)`,
        params: [
          c * ROWS_PER_STATEMENT,
          Math.min((c + 1) * ROWS_PER_STATEMENT, count),
          prefix,
          quizId,
          users,
          started,
          sizes.patterns,
        ],
      }));
    await sql.run(generate(smallId, "0000000000000a", sizes.small, Math.min(sizes.users, sizes.small)));
    // One statement per HTTP request: each inserts ROWS_PER_STATEMENT rows of a few KB.
    for (const statement of generate(largeId, "0000000000000b", sizes.large, sizes.users)) await sql.run([statement]);
    await sql.run(SCRATCH.map((t) => ({ sql: `DROP TABLE ${t}`, params: [] })));
  });
  await timed(timings, "aggregates rebuilt (SQL)", () => rebuildAggregates(sql));

  // The aggregates the read path serves must describe the rows that exist.
  const d1 = await worker.mf.getD1Database("DB");
  for (const [quizId, expected] of [
    [smallId, sizes.small],
    [largeId, sizes.large],
  ] as const) {
    const rows = await d1
      .prepare("SELECT count(*) AS n, avg(score) AS mean FROM submissions WHERE quiz_id = ? AND status = 'graded'")
      .bind(quizId)
      .first<{ n: number; mean: number }>();
    const api = await ok<{ total_attempts: number; avg_score: number }>(worker.url, {
      method: "GET",
      path: `/v1/analytics/quiz/${quizId}`,
      headers,
    });
    if (rows?.n !== expected || api.total_attempts !== expected || Math.abs(api.avg_score - (rows?.mean ?? 0)) > 0.006)
      throw new Error(`analytics seed mismatch for ${quizId}: rows ${JSON.stringify(rows)}, API ${JSON.stringify(api)}`);
  }
  return { small: { quizId: smallId, submissions: sizes.small }, large: { quizId: largeId, submissions: sizes.large }, timings };
}
