import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { StoredAnswer } from "../domain/answers";
import { CONTENT_FORMATS } from "../domain/content/question-content";
import type { StoredAnswerResult } from "../domain/grading";
import { ITEM_ATTEMPTS, type ItemSumsTuple, type OptionSumsTuple } from "../domain/item-analysis";
import { JOB_STATUSES, JOB_TYPES } from "../domain/jobs";
import { QUESTION_TYPES, type QuestionFeedback } from "../domain/question-types";
import type { QuizSettings } from "../domain/quiz-settings";
import { type PresentedQuestion, SUBMISSION_STATUSES } from "../domain/submissions";
import { ROLES } from "../domain/users";

// Timestamps are ISO 8601 UTC strings with milliseconds: they sort as text and are what the API shows.

export const quizzes = sqliteTable("quizzes", {
  id: text("id").primaryKey(),
  title: text("title").notNull(),
  description: text("description").notNull().default(""),
  settings: text("settings", { mode: "json" }).$type<QuizSettings>().notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  /**
   * How many questions the quiz has, kept by triggers on questions (migration 0006): a page of
   * quizzes reads one row per quiz, not every question's index entry (D1 bills rows read).
   */
  questionCount: integer("question_count").notNull().default(0),
});

export const questions = sqliteTable(
  "questions",
  {
    id: text("id").primaryKey(),
    quizId: text("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    type: text("type", { enum: QUESTION_TYPES }).notNull(),
    prompt: text("prompt").notNull(),
    /** How its texts are read (CONTRACT §19): "html" texts are stored sanitized (domain/content); not part of grading. */
    contentFormat: text("content_format", { enum: CONTENT_FORMATS }).notNull().default("text"),
    points: real("points").notNull(),
    /** The type's key fields (options, correct answers, tolerance, …) as validated JSON. */
    definition: text("definition", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    feedback: text("feedback", { mode: "json" }).$type<QuestionFeedback>().notNull(),
    explanation: text("explanation"),
    /** The pool the question belongs to (a label); null: presented in every submission. */
    pool: text("pool"),
    /** An author's name for the question (docs/import-export.md); not part of grading, so a change makes no new version. */
    title: text("title"),
    /** Labels for finding questions (`?tag=`), a JSON array; not part of grading either. */
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default([]),
    /** 1 at creation, +1 for every change to what grading reads (key, options, scoring, points). */
    version: integer("version").notNull().default(1),
    /** The most its answer and result add to a submission's row (domain/answers answerRowBytes): a quiz's sum is bounded. */
    answerBytes: integer("answer_bytes").notNull().default(0),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("questions_quiz_position_idx").on(t.quizId, t.position)],
);

/**
 * What grading and results read of a question, one row per version. Results reference
 * (question_id, version) instead of copying keys, feedback and explanations into every graded
 * submission, so a submission's row stays bounded; rows outlive the question they describe.
 */
export const questionVersions = sqliteTable(
  "question_versions",
  {
    questionId: text("question_id").notNull(),
    version: integer("version").notNull(),
    type: text("type", { enum: QUESTION_TYPES }).notNull(),
    points: real("points").notNull(),
    definition: text("definition", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    feedback: text("feedback", { mode: "json" }).$type<QuestionFeedback>().notNull(),
    explanation: text("explanation"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.questionId, t.version] })],
);

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Null once the user is deleted: the row stays so that their graded submissions keep a user id. */
    name: text("name"),
    email: text("email"),
    /** Lower-cased e-mail: the unique key that makes e-mail uniqueness case-insensitive. */
    emailNormalized: text("email_normalized"),
    role: text("role", { enum: ROLES }).notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    deletedAt: text("deleted_at"),
  },
  (t) => [uniqueIndex("users_email_normalized_idx").on(t.emailNormalized), index("users_role_idx").on(t.role, t.id)],
);

export const submissions = sqliteTable(
  "submissions",
  {
    id: text("id").primaryKey(),
    quizId: text("quiz_id")
      .notNull()
      .references(() => quizzes.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    /** 1-based attempt number of this user at this quiz; unique, so max_attempts holds under races. */
    attempt: integer("attempt").notNull(),
    status: text("status", { enum: SUBMISSION_STATUSES }).notNull(),
    answers: text("answers", { mode: "json" }).$type<StoredAnswer[]>().notNull(),
    /** +1 on every answers write; the grade claims the submission only at the revision it graded. */
    answersRevision: integer("answers_revision").notNull().default(0),
    /**
     * The seq of every question the answers do not name: the last whole-answers PUT's time in ms
     * (it resets every seq), 0 before one. A one-answer save lands only above its question's seq.
     */
    answersBaseSeq: integer("answers_base_seq").notNull().default(0),
    score: real("score"),
    pointsEarned: real("points_earned"),
    pointsPossible: real("points_possible"),
    feedback: text("feedback"),
    /** Per answer: question_id, the question version graded, correct, points; no copied texts. */
    // Each presented question's result (rows graded before question versions carry the legacy
    // form, a superset without `version`: read as such only by results.service.ts).
    results: text("results", { mode: "json" }).$type<StoredAnswerResult[]>(),
    /** Set by the one grading call that wins; the other statements of its batch are conditioned on it. */
    gradeToken: text("grade_token"),
    /** Answers are refused from this instant on (time limit + extra time, or the window's end); null: none. */
    deadlineAt: text("deadline_at"),
    /** "request" or "deadline" (the cron); null while open. */
    gradedBy: text("graded_by", { enum: ["request", "deadline"] }),
    /** The questions drawn and their order (and option order when shuffled), fixed at creation; null: all, in the quiz's order. */
    presented: text("presented", { mode: "json" }).$type<PresentedQuestion[]>(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    gradedAt: text("graded_at"),
  },
  (t) => [
    uniqueIndex("submissions_quiz_user_attempt_idx").on(t.quizId, t.userId, t.attempt),
    index("submissions_quiz_idx").on(t.quizId, t.id),
    // The results export's order, one keyset page at a time (without it each page sorts the quiz).
    index("submissions_quiz_created_idx").on(t.quizId, t.createdAt, t.id),
    index("submissions_user_idx").on(t.userId, t.id),
    index("submissions_overdue_idx").on(t.deadlineAt).where(sql`status = 'open' AND deadline_at IS NOT NULL`),
  ],
);

/** Running aggregates per quiz, updated in the grading batch (Welford's mean and M2 for a stable variance). */
export const quizStats = sqliteTable("quiz_stats", {
  quizId: text("quiz_id").primaryKey(),
  totalAttempts: integer("total_attempts").notNull().default(0),
  uniqueUsers: integer("unique_users").notNull().default(0),
  meanScore: real("mean_score").notNull().default(0),
  m2Score: real("m2_score").notNull().default(0),
  minScore: real("min_score"),
  maxScore: real("max_score"),
  /** Ten counts: [0,10), [10,20), …, [90,100]. */
  buckets: text("buckets", { mode: "json" }).$type<number[]>().notNull().default(sql`'[0,0,0,0,0,0,0,0,0,0]'`),
});

export const userStats = sqliteTable("user_stats", {
  userId: text("user_id").primaryKey(),
  totalAttempts: integer("total_attempts").notNull().default(0),
  quizzesTaken: integer("quizzes_taken").notNull().default(0),
  meanScore: real("mean_score").notNull().default(0),
  minScore: real("min_score"),
  maxScore: real("max_score"),
  lastGradedAt: text("last_graded_at"),
});

/** Per user and quiz: extra time on every deadline and extra attempts beyond max_attempts. */
export const accommodations = sqliteTable(
  "accommodations",
  {
    quizId: text("quiz_id").notNull(),
    userId: text("user_id").notNull(),
    extraTimeSeconds: integer("extra_time_seconds").notNull().default(0),
    extraAttempts: integer("extra_attempts").notNull().default(0),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.quizId, t.userId] })],
);

/**
 * Per user and quiz, what every grading policy needs, kept in the grading batch: the kept score
 * under any policy is read from one row, and changing the policy changes every kept score at once.
 */
export const grades = sqliteTable(
  "grades",
  {
    quizId: text("quiz_id").notNull(),
    userId: text("user_id").notNull(),
    /** Graded submissions. */
    attempts: integer("attempts").notNull().default(0),
    firstAttempt: integer("first_attempt").notNull(),
    firstScore: real("first_score").notNull(),
    latestAttempt: integer("latest_attempt").notNull(),
    latestScore: real("latest_score").notNull(),
    highestScore: real("highest_score").notNull(),
    scoreSum: real("score_sum").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.quizId, t.userId] }), index("grades_user_idx").on(t.userId, t.quizId)],
);

/**
 * Item analysis's sufficient statistics per quiz and population ("all" graded submissions or each
 * user's "first"), one row each, kept in the grading batch and moved by regrades and reviews
 * (docs/item-analysis.md). A grade rewrites one row per population it counts in, not a row per
 * question and option: D1 bills, and its single writer spends, rows written. Micro-points; Σt²
 * and the JSON's products are doubles (past 2^63 at scale).
 */
export const itemSums = sqliteTable(
  "item_sums",
  {
    quizId: text("quiz_id").notNull(),
    attempts: text("attempts", { enum: ITEM_ATTEMPTS }).notNull(),
    /** The submissions counted, Σt and Σt² of their total points. */
    n: integer("n").notNull().default(0),
    sumT: integer("sum_t").notNull().default(0),
    sumTt: real("sum_tt").notNull().default(0),
    /** Per question presented: `{ question_id: ItemSumsTuple }` (domain/item-analysis.ts), right answers included. */
    items: text("items", { mode: "json" }).$type<Record<string, ItemSumsTuple>>().notNull().default(sql`'{}'`),
    /** Per question and option chosen: `{ question_id: { option_id: [count, Σt] } }`. */
    options: text("options", { mode: "json" })
      .$type<Record<string, Record<string, OptionSumsTuple>>>()
      .notNull()
      .default(sql`'{}'`),
  },
  (t) => [primaryKey({ columns: [t.quizId, t.attempts] })],
);

/**
 * Long work run through the jobs queue in bounded chunks. `cursor` is the last submission id a
 * chunk finished; each chunk's batch moves it and stamps `chunk_token`, and its writes are
 * conditioned on that stamp, so a redelivered chunk changes nothing and a failed one resumes.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    type: text("type", { enum: JOB_TYPES }).notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull(),
    /** The scope that started it: only a credential holding it sees the job. */
    scope: text("scope").notNull(),
    quizId: text("quiz_id").notNull(),
    params: text("params", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    cursor: text("cursor"),
    chunkToken: text("chunk_token"),
    done: integer("done").notNull().default(0),
    total: integer("total"),
    /** Σ score before over the submissions considered (the mean before; the changes give the mean after). */
    sumBefore: real("sum_before").notNull().default(0),
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>(),
    error: text("error"),
    /** The failure's code where the job type reports one (an import's `error: { code, detail }`); `error` is the detail. */
    errorCode: text("error_code"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    finishedAt: text("finished_at"),
  },
  (t) => [index("jobs_unfinished_idx").on(t.updatedAt).where(sql`status IN ('queued', 'running')`)],
);

/** A regrade's per-submission changes (dry run or applied), listed by submission id. */
export const jobChanges = sqliteTable(
  "job_changes",
  {
    jobId: text("job_id").notNull(),
    submissionId: text("submission_id").notNull(),
    userId: text("user_id").notNull(),
    scoreBefore: real("score_before").notNull(),
    scoreAfter: real("score_after").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.submissionId] })],
);
