// The bench's data set. Quizzes are created through the API (their validation and atomic write
// are real work worth exercising); users, graded submissions and a pool of open submissions (for
// the grading endpoint) are inserted by SQL, each submission graded in Node by the project's own
// grading engine (src/domain/grading.ts, pure); then the analytics aggregates are rebuilt from
// them (bench/aggregates.ts). Grading 10 000 submissions through the API would cost about a
// minute of the five the suite may take on this machine.
import { asc, inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { monotonicFactory } from "ulidx";
import type { LocalWorker } from "../scripts/local-worker";
import { newApiKey } from "../src/auth/api-keys";
import { apiKeys } from "../src/db/auth-schema";
import { questions, quizzes, submissions, users } from "../src/db/schema";
import { scoreSubmission } from "../src/domain/grading";
import type { GradableQuestion } from "../src/domain/question-types";
import { gradableQuestion } from "../src/domain/questions";
import type { FeedbackBand } from "../src/domain/quiz-settings";
import { ID_PREFIX } from "../src/lib/ids";
import { rebuildAggregates } from "./aggregates";
import { answersFor, quizInput, seededRandom } from "./fixtures";
import { ok, pool } from "./http";
import { SqlClient, type Statement, toStatement } from "./sql-client";

export interface BenchSizes {
  quizzes: number;
  questionsPerQuiz: number;
  users: number;
  gradedSubmissions: number;
  /** Open submissions for the grading endpoint, each graded once. */
  openSubmissions: number;
  /** Open submissions, like those, for the bare worker that runs a grade's own SQL (bench/grade-sql-worker.ts). */
  gradeSqlSubmissions: number;
}

export const BENCH_SIZES: BenchSizes = {
  quizzes: 200,
  questionsPerQuiz: 20,
  users: 1000,
  gradedSubmissions: 10_000,
  openSubmissions: 6_000,
  gradeSqlSubmissions: 6_000,
};

/** Parallel requests while creating quizzes through the API. */
const SEED_CONCURRENCY = 6;
/** D1 allows 100 bound parameters per statement; drizzle binds every column of the table. */
const SUBMISSION_ROWS_PER_INSERT = 6; // 15 columns
const USER_ROWS_PER_INSERT = 12; // 8 columns
const DAY_MS = 24 * 60 * 60 * 1000;

export interface BenchData {
  adminKey: string;
  client: { id: string; secret: string };
  quizIds: string[];
  userIds: string[];
  gradedIds: string[];
  openIds: string[];
  /** Open submissions kept for the grade's SQL baseline: the app never grades these. */
  gradeSqlIds: string[];
  /** Seconds per seeding step. */
  timings: Record<string, number>;
}

type Db = ReturnType<typeof drizzle>;
type SubmissionInsert = typeof submissions.$inferInsert;

/** drizzle over the Node-side D1 proxy: for the few small reads the seeding needs. */
export async function benchDb(worker: LocalWorker): Promise<Db> {
  return drizzle(await worker.mf.getD1Database("DB"));
}

/** An admin API key inserted straight into D1, as `npm run key:create` does. */
export async function createAdminKey(db: Db): Promise<string> {
  const { key, row } = await newApiKey({ name: "bench admin", scopes: ["admin"], expiresAt: null });
  await db.insert(apiKeys).values(row);
  return key;
}

function chunks<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

export function submissionInserts(db: Db, rows: SubmissionInsert[]): Statement[] {
  return chunks(rows, SUBMISSION_ROWS_PER_INSERT).map((c) => toStatement(db.insert(submissions).values(c)));
}

/** Users made by SQL, `student` role; their ids. */
export async function insertUsers(db: Db, sql: SqlClient, count: number, label: string): Promise<string[]> {
  const now = new Date().toISOString();
  const newUserId = idFactory("user");
  const rows = Array.from({ length: count }, (_, n) => {
    const email = `${label}-${n}@example.com`;
    return {
      id: newUserId(Date.now()),
      name: `${label} ${n}`,
      email,
      emailNormalized: email,
      role: "student" as const,
      createdAt: now,
      updatedAt: now,
    };
  });
  await sql.run(chunks(rows, USER_ROWS_PER_INSERT).map((c) => toStatement(db.insert(users).values(c))));
  return rows.map((r) => r.id);
}

/**
 * Ids in the app's format (src/lib/ids.ts) for back-dated rows. The app's own factory is
 * monotonic over the whole process, so once it has made an id "now" it would stamp every
 * back-dated id with "now" too; a factory of our own keeps ids and timestamps in step.
 */
export function idFactory(kind: keyof typeof ID_PREFIX) {
  const ulid = monotonicFactory();
  return (at: number) => `${ID_PREFIX[kind]}_${ulid(at).toLowerCase()}`;
}

/** Each quiz's questions in the grading engine's terms (gradableQuestion), and its feedback bands. */
export async function loadQuizzes(db: Db, quizIds: string[]) {
  const byQuiz = new Map<string, { questions: GradableQuestion[]; bands: FeedbackBand[] }>();
  for (const ids of chunks(quizIds, 90)) {
    for (const q of await db.select({ id: quizzes.id, settings: quizzes.settings }).from(quizzes).where(inArray(quizzes.id, ids)))
      byQuiz.set(q.id, { questions: [], bands: q.settings.feedback_bands });
    const rows = await db
      .select()
      .from(questions)
      .where(inArray(questions.quizId, ids))
      .orderBy(asc(questions.quizId), asc(questions.position));
    for (const row of rows) byQuiz.get(row.quizId)?.questions.push(gradableQuestion(row));
  }
  return byQuiz;
}

/** A graded submission row: the answers graded by the engine, frozen as the grading batch freezes them. */
export function gradedRow(
  row: SubmissionInsert & { answers: { question_id: string; response: unknown }[] },
  quiz: { questions: GradableQuestion[]; bands: FeedbackBand[] },
  gradedAt: string,
): SubmissionInsert {
  const result = scoreSubmission(quiz.questions, row.answers, quiz.bands);
  return {
    ...row,
    status: "graded",
    score: result.score,
    pointsEarned: result.points_earned,
    pointsPossible: result.points_possible,
    feedback: result.feedback,
    // As the grading batch stores them: each presented question's points against its version
    // (the seeded questions are at version 1), and the options a choice answer chose.
    results: result.answers.map((a) => ({
      question_id: a.question_id,
      version: 1,
      correct: a.correct,
      points_earned: a.points_earned,
      points_possible: a.points_possible,
      ...(a.chosen === undefined ? {} : { chosen: a.chosen }),
    })),
    gradeToken: crypto.randomUUID(),
    updatedAt: gradedAt,
    gradedAt,
  };
}

export async function timed<T>(timings: Record<string, number>, step: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  timings[step] = (performance.now() - started) / 1000;
  return result;
}

export async function seedBench(worker: LocalWorker, sizes: BenchSizes = BENCH_SIZES): Promise<BenchData> {
  const timings: Record<string, number> = {};
  const db = await benchDb(worker);
  const sql = new SqlClient(worker.url);
  const adminKey = await createAdminKey(db);
  const auth = { authorization: `Bearer ${adminKey}`, "content-type": "application/json" };
  const post = <T>(path: string, body: unknown) =>
    ok<T>(worker.url, { method: "POST", path, headers: auth, body: JSON.stringify(body) });

  const client = await post<{ client_id: string; client_secret: string }>("/v1/oauth-clients", {
    name: "bench client",
    scopes: ["quizzes:read", "analytics:read"],
  });
  const quizIds = await timed(timings, `${sizes.quizzes} quizzes × ${sizes.questionsPerQuiz} questions (API)`, () =>
    pool(
      Array.from({ length: sizes.quizzes }, (_, n) => n),
      SEED_CONCURRENCY,
      async (n) => (await post<{ id: string }>("/v1/quizzes", quizInput(n, sizes.questionsPerQuiz))).id,
    ),
  );
  const userIds = await timed(timings, `${sizes.users} users (SQL)`, () => insertUsers(db, sql, sizes.users, "bench-student"));

  const total = sizes.gradedSubmissions + sizes.openSubmissions + sizes.gradeSqlSubmissions;
  const { gradedIds, openIds, gradeSqlIds } = await timed(
    timings,
    `${sizes.gradedSubmissions} graded + ${sizes.openSubmissions + sizes.gradeSqlSubmissions} open submissions (SQL, graded in Node)`,
    async () => {
      const quizData = await loadQuizzes(db, quizIds);
      const random = seededRandom(42);
      const skills = userIds.map(() => 0.25 + 0.7 * random());
      const attempts = new Map<string, number>();
      const newSubmissionId = idFactory("submission");
      // Spread over the last 30 days, in time order.
      const start = Date.now() - 30 * DAY_MS;
      const step = (30 * DAY_MS - 60_000) / total;
      const rows: SubmissionInsert[] = [];
      for (let i = 0; i < total; i++) {
        const u = i % userIds.length;
        const quizId = quizIds[Math.floor(random() * quizIds.length)] as string;
        const userId = userIds[u] as string;
        const quiz = quizData.get(quizId);
        if (!quiz) throw new Error(`no questions for ${quizId}`);
        const slot = `${quizId}|${userId}`;
        const attempt = (attempts.get(slot) ?? 0) + 1;
        attempts.set(slot, attempt);
        const at = Math.floor(start + i * step);
        const created = new Date(at).toISOString();
        const open = {
          id: newSubmissionId(at),
          quizId,
          userId,
          attempt,
          status: "open" as const,
          answers: answersFor(quiz.questions, skills[u] as number, random),
          createdAt: created,
          updatedAt: created,
        };
        rows.push(i < sizes.gradedSubmissions ? gradedRow(open, quiz, new Date(at + 30_000).toISOString()) : open);
      }
      await sql.run(submissionInserts(db, rows));
      const ids = rows.map((r) => r.id);
      const open = sizes.gradedSubmissions + sizes.openSubmissions;
      return {
        gradedIds: ids.slice(0, sizes.gradedSubmissions),
        openIds: ids.slice(sizes.gradedSubmissions, open),
        gradeSqlIds: ids.slice(open),
      };
    },
  );
  await timed(timings, "aggregates rebuilt (SQL)", () => rebuildAggregates(sql));
  return {
    adminKey,
    client: { id: client.client_id, secret: client.client_secret },
    quizIds,
    userIds,
    gradedIds,
    openIds,
    gradeSqlIds,
    timings,
  };
}
