import { asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { eventStatement } from "../../db/outbox";
import { questions, quizzes, submissions } from "../../db/schema";
import { statement } from "../../db/statements";
import { gradeSubmission, pointsSentence, type StoredAnswerResult } from "../../domain/grading";
import { toMicro } from "../../domain/points";
import { gradableQuestion } from "../../domain/questions";
import { readSettings } from "../../domain/quiz-settings";
import { bucketOf } from "../../domain/score-distribution";
import type { GradedBy } from "../../domain/submissions";
import type { Database } from "../../env";
import { ApiError, notFound } from "../../lib/errors";
import { isoNow } from "../../lib/time";
import { type AnswerPoints, itemStatsOnGrade } from "../analytics";
import { keepGrade } from "../grades";
import { presentedQuestions, type SubmissionRow, serializeSubmission } from "./submissions.service";

/** How often a grade re-reads a submission whose answers changed between its read and its claim. */
const GRADE_ATTEMPTS = 5;

/** Rows of question_stats written per statement: 3 bound values each, under D1's 100 per statement. */
const QUESTION_STATS_CHUNK = 25;

export function gradeResponse(row: SubmissionRow) {
  if (row.status === "open" || row.score === null) throw notGraded();
  return {
    submission_id: row.id,
    score: row.score,
    // Rows graded before feedback was always a string may hold null.
    feedback: row.feedback ?? pointsSentence(row.pointsEarned ?? 0, row.pointsPossible ?? 0, row.score),
    points_earned: row.pointsEarned ?? 0,
    points_possible: row.pointsPossible ?? 0,
    status: row.status,
    graded_at: row.status === "graded" ? row.gradedAt : null,
  };
}

const notGraded = () => new ApiError(409, "not_graded", "The submission has not been graded yet.");

/**
 * Grades a submission exactly once. One D1 read (a batch of three selects) fetches the
 * submission, its quiz's settings and questions; one atomic D1 batch closes the submission and
 * updates every aggregate. The batch's first statement claims the submission with a fresh
 * token only while it is still open; every later statement runs only where that token stands,
 * so of any number of concurrent graders exactly one changes anything (and records the
 * submission.graded event), and analytics count the submission once. The others, and any
 * later call, answer the stored grade.
 *
 * The claim also requires the answers revision that was read: an answers write that lands
 * between the read and the claim makes the claim miss, and the grade starts over with the new
 * answers. A write after the claim finds the submission closed (409). So an answers write
 * answered 2xx is always part of what is graded.
 */
export async function gradeSubmissionOnce(db: Database, id: string, by: GradedBy = "request") {
  for (let attempt = 1; ; attempt++) {
    const outcome = await tryGrade(db, id, by);
    if (outcome !== "answers_changed") return outcome;
    if (attempt === GRADE_ATTEMPTS)
      throw new ApiError(409, "answers_changing", "The submission's answers kept changing while it was graded; retry.");
  }
}

async function tryGrade(db: Database, id: string, by: GradedBy) {
  const quizOf = db.select({ quizId: submissions.quizId }).from(submissions).where(eq(submissions.id, id));
  const [subRows, quizRows, questionRows] = await db.batch([
    db.select().from(submissions).where(eq(submissions.id, id)),
    db.select({ settings: quizzes.settings }).from(quizzes).where(inArray(quizzes.id, quizOf)),
    db.select().from(questions).where(inArray(questions.quizId, quizOf)).orderBy(asc(questions.position)),
  ]);
  const submission = subRows[0];
  const quiz = quizRows[0];
  if (!submission || !quiz) throw notFound("Submission");
  if (submission.status !== "open") return gradeResponse(submission);

  // Only what the submission presents is graded: points_possible counts those questions alone.
  const shown = presentedQuestions(questionRows, submission.presented);
  const result = gradeSubmission(shown.map(gradableQuestion), submission.answers, readSettings(quiz.settings).feedback_bands);
  const stored: StoredAnswerResult[] = result.answers.map((a, i) => ({
    question_id: a.question_id,
    version: shown[i]?.version ?? 1,
    correct: a.correct,
    points_earned: a.points_earned,
    points_possible: a.points_possible,
    ...(a.chosen === undefined ? {} : { chosen: a.chosen }),
    ...(a.pending ? { pending: true as const } : {}),
  }));
  const now = isoNow();
  // An answered essay leaves the submission needing review: closed, not yet counted anywhere.
  const status = result.needs_review ? "needs_review" : "graded";
  const token = crypto.randomUUID();
  const won = sql`EXISTS (SELECT 1 FROM submissions WHERE id = ${id} AND grade_token = ${token})`;
  const x = result.score;
  const claim = sql`
    UPDATE submissions SET status = ${status}, score = ${x}, points_earned = ${result.points_earned},
      points_possible = ${result.points_possible}, feedback = ${result.feedback},
      results = ${JSON.stringify(stored)}, grade_token = ${token}, graded_by = ${by},
      graded_at = ${status === "graded" ? now : null}, updated_at = ${now}
    WHERE id = ${id} AND status = 'open' AND answers_revision = ${submission.answersRevision}`;
  const closed: SubmissionRow = {
    ...submission,
    status,
    score: x,
    pointsEarned: result.points_earned,
    pointsPossible: result.points_possible,
    feedback: result.feedback,
    results: stored,
    gradedBy: by,
    gradedAt: status === "graded" ? now : null,
    updatedAt: now,
  };
  // Counted everywhere (and submission.graded recorded) only once graded; a submission that needs
  // review records submission.needs_review and is counted when its last essay is reviewed.
  const writes =
    status === "graded"
      ? countGraded(db, closed, won)
      : [eventStatement(db, { type: "submission.needs_review", object: serializeSubmission(closed) }, won)];
  const outcome = await db.$client.batch([statement(db, claim), ...writes]);
  if (outcome[0]?.meta.changes === 1) return gradeResponse(closed);
  // Another call graded it between our read and our write (answer what it stored), or the
  // answers changed (grade again).
  const [now_] = await db.select().from(submissions).where(eq(submissions.id, id));
  if (!now_) throw notFound("Submission");
  if (now_.status === "open") return "answers_changed" as const;
  return gradeResponse(now_);
}

/**
 * The statements that count a just-graded submission in every aggregate — quiz, user, question,
 * item analysis, the user's grade — and record its submission.graded event, each only where
 * `won` (its claim) stands: placed in the batch that grades it, or that reviews its last essay.
 */
export function countGraded(db: Database, graded: SubmissionRow, won: SQL): D1PreparedStatement[] {
  const { quizId, userId, attempt } = graded;
  const x = graded.score ?? 0;
  const now = graded.gradedAt ?? graded.updatedAt;
  const stored = (graded.results ?? []) as StoredAnswerResult[];
  const bucket = `$[${bucketOf(x)}]`;
  const firstAttemptOfUser = sql`(SELECT CASE WHEN attempts = 1 THEN 1 ELSE 0 END FROM quiz_user_stats WHERE quiz_id = ${quizId} AND user_id = ${userId})`;
  const statements = [
    sql`
      INSERT INTO quiz_user_stats (quiz_id, user_id, attempts) SELECT ${quizId}, ${userId}, 1 WHERE ${won}
      ON CONFLICT (quiz_id, user_id) DO UPDATE SET attempts = attempts + 1`,
    // Welford's update of mean and M2: stable at any count, unlike sum and sum of squares.
    sql`
      INSERT INTO quiz_stats (quiz_id, total_attempts, unique_users, mean_score, m2_score, min_score, max_score, buckets)
      SELECT ${quizId}, 1, 1, ${x}, 0, ${x}, ${x}, json_set('[0,0,0,0,0,0,0,0,0,0]', ${bucket}, 1) WHERE ${won}
      ON CONFLICT (quiz_id) DO UPDATE SET
        total_attempts = total_attempts + 1,
        unique_users = unique_users + ${firstAttemptOfUser},
        mean_score = mean_score + (${x} - mean_score) / (total_attempts + 1),
        m2_score = m2_score + (${x} - mean_score) * (${x} - (mean_score + (${x} - mean_score) / (total_attempts + 1))),
        min_score = min(min_score, ${x}),
        max_score = max(max_score, ${x}),
        buckets = json_set(buckets, ${bucket}, json_extract(buckets, ${bucket}) + 1)`,
    sql`
      INSERT INTO user_stats (user_id, total_attempts, quizzes_taken, mean_score, min_score, max_score, last_graded_at)
      SELECT ${userId}, 1, 1, ${x}, ${x}, ${x}, ${now} WHERE ${won}
      ON CONFLICT (user_id) DO UPDATE SET
        total_attempts = total_attempts + 1,
        quizzes_taken = quizzes_taken + ${firstAttemptOfUser},
        mean_score = mean_score + (${x} - mean_score) / (total_attempts + 1),
        min_score = min(min_score, ${x}),
        max_score = max(max_score, ${x}),
        last_graded_at = max(coalesce(last_graded_at, ''), ${now})`,
    ...questionStatsStatements(quizId, stored, won),
    ...itemStatsOnGrade({ quizId, userId, attempt }, answerPoints(stored), toMicro(graded.pointsEarned ?? 0), won),
    keepGrade({ quizId, userId, attempt, score: x, at: now }, won),
  ];
  // The event too is written only where the claim stands: one submission.graded per submission.
  return [
    ...statements.map((s) => statement(db, s)),
    eventStatement(db, { type: "submission.graded", object: serializeSubmission(graded) }, won),
  ];
}

/** A graded submission's stored results in item analysis's terms (micro-points). */
export function answerPoints(results: readonly StoredAnswerResult[]): AnswerPoints[] {
  return results.map((a) => ({
    question_id: a.question_id,
    x: toMicro(a.points_earned),
    p: toMicro(a.points_possible),
    ...(a.chosen === undefined ? {} : { chosen: a.chosen }),
  }));
}

function questionStatsStatements(quizId: string, answers: StoredAnswerResult[], won: SQL): SQL[] {
  const statements: SQL[] = [];
  for (let i = 0; i < answers.length; i += QUESTION_STATS_CHUNK) {
    const rows = answers
      .slice(i, i + QUESTION_STATS_CHUNK)
      .map((a) => sql`(${a.question_id}, ${a.correct ? 1 : 0}, ${toMicro(a.points_earned)})`);
    statements.push(
      sql`
        INSERT INTO question_stats (quiz_id, question_id, attempts, correct_count, points_earned_micro)
        SELECT ${quizId}, column1, 1, column2, column3 FROM (VALUES ${sql.join(rows, sql`, `)}) WHERE ${won}
        ON CONFLICT (quiz_id, question_id) DO UPDATE SET
          attempts = attempts + 1,
          correct_count = correct_count + excluded.correct_count,
          points_earned_micro = points_earned_micro + excluded.points_earned_micro`,
    );
  }
  return statements;
}
