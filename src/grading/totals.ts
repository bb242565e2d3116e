import { type SQL, sql } from "drizzle-orm";
import { eventStatement } from "../db/outbox";
import { statement } from "../db/statements";
import type { StoredAnswerResult } from "../domain/grading";
import { toMicro } from "../domain/points";
import { bucketOf } from "../domain/score-distribution";
import type { Database } from "../env";
import { type AnswerPoints, itemSumsOnGrade, itemSumsOnRegrade } from "./item-analysis-sums";
import { keptGradeChanged } from "./kept-grade-followers";
import { type SubmissionRow, serializeSubmission } from "./submission";

/**
 * The running totals of grading, and their one writer: every statement that counts a graded
 * submission in, or moves it within, the quiz's and the user's analytics, the item-analysis sums
 * (per-question figures included) and the user's kept grade, which it announces to the kept
 * grade's followers (kept-grade-followers.ts: the LTI ledger). A grade, a review, a regrade and a
 * deadline all write them through here, each statement conditioned on the caller's claim of the
 * submission. Rows written are what D1 bills and what its one writer per database spends, so each
 * aggregate is one row per grade: see docs/performance.md, "Rows written per grade".
 */

/**
 * The statements that count a just-graded submission in every aggregate — the user's grade, quiz,
 * user, item analysis — and record its submission.graded event, each only where `won` (its claim)
 * stands: placed in the batch that grades it, or that reviews its last essay. The grade comes
 * first: its attempt count tells the statements after it whether this is the user's first graded
 * attempt at the quiz.
 */
export function countGraded(db: Database, graded: SubmissionRow, won: SQL): D1PreparedStatement[] {
  const { quizId, userId, attempt } = graded;
  const x = graded.score ?? 0;
  const now = graded.gradedAt ?? graded.updatedAt;
  const stored = graded.results ?? [];
  const bucket = `$[${bucketOf(x)}]`;
  const firstAttemptOfUser = sql`(SELECT CASE WHEN attempts = 1 THEN 1 ELSE 0 END FROM grades WHERE quiz_id = ${quizId} AND user_id = ${userId})`;
  const statements = [
    keepGrade({ quizId, userId, attempt, score: x, at: now }, won),
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
    itemSumsOnGrade({ quizId, userId, attempt }, answerPoints(stored), toMicro(graded.pointsEarned ?? 0), won),
    // The kept grade may have changed: its followers (the LTI ledger) follow.
    ...keptGradeChanged({ quizId, userId, changedAt: now }, won),
  ];
  // The event too is written only where the claim stands: one submission.graded per submission.
  return [
    ...statements.map((s) => statement(db, s)),
    eventStatement(db, { type: "submission.graded", object: serializeSubmission(graded) }, won),
  ];
}

/** A graded submission's stored results in item analysis's terms (micro-points). */
function answerPoints(results: readonly StoredAnswerResult[]): AnswerPoints[] {
  return results.map((a) => ({
    question_id: a.question_id,
    x: toMicro(a.points_earned),
    p: toMicro(a.points_possible),
    right: a.correct,
    ...(a.chosen === undefined ? {} : { chosen: a.chosen }),
  }));
}

/** A graded submission's new grade: what a regrade or a later review makes of it. */
export interface NewGrade {
  results: StoredAnswerResult[];
  score: number;
  points_earned: number;
  points_possible: number;
}

/**
 * The statements that move every aggregate from a graded submission's stored grade to `next`,
 * each only where `claimed` (the claim that wrote `next`) stands: item sums (right answers and
 * points per question included) and totals, the
 * quiz's mean and M2 with one value replaced (mean' = mean + d/n, M2' = M2 + d·(x1 + x0 − mean −
 * mean')) and its buckets, the user's mean, lowest and highest, and the user's grade. The quiz's
 * lowest and highest scores are the caller's to read again.
 */
export function movedStatements(row: SubmissionRow, next: NewGrade, claimed: SQL, now: string): SQL[] {
  const { quizId, userId, attempt } = row;
  const before = row.results ?? [];
  const x0 = row.score ?? 0;
  const x1 = next.score;
  const d = x1 - x0;
  const b0 = `$[${bucketOf(x0)}]`;
  const b1 = `$[${bucketOf(x1)}]`;
  const moved = sql`json_set(buckets, ${b0}, json_extract(buckets, ${b0}) - 1)`;
  return [
    itemSumsOnRegrade(
      { quizId, userId, attempt },
      { answers: answerPoints(before), total: toMicro(row.pointsEarned ?? 0) },
      { answers: answerPoints(next.results), total: toMicro(next.points_earned) },
      claimed,
    ),
    sql`
      UPDATE quiz_stats SET
        mean_score = mean_score + ${d} / total_attempts,
        m2_score = m2_score + ${d} * (${x1} + ${x0} - mean_score - (mean_score + ${d} / total_attempts)),
        min_score = min(min_score, ${x1}),
        max_score = max(max_score, ${x1}),
        buckets = json_set(${moved}, ${b1}, json_extract(${moved}, ${b1}) + 1)
      WHERE quiz_id = ${quizId} AND ${claimed}`,
    sql`
      UPDATE user_stats SET
        mean_score = mean_score + ${d} / total_attempts,
        min_score = (SELECT min(score) FROM submissions WHERE user_id = ${userId} AND status = 'graded'),
        max_score = (SELECT max(score) FROM submissions WHERE user_id = ${userId} AND status = 'graded')
      WHERE user_id = ${userId} AND ${claimed}`,
    sql`
      UPDATE grades SET
        first_score = CASE WHEN first_attempt = ${attempt} THEN ${x1} ELSE first_score END,
        latest_score = CASE WHEN latest_attempt = ${attempt} THEN ${x1} ELSE latest_score END,
        highest_score = (SELECT max(score) FROM submissions WHERE quiz_id = ${quizId} AND user_id = ${userId} AND status = 'graded'),
        score_sum = score_sum + ${d},
        updated_at = ${now}
      WHERE quiz_id = ${quizId} AND user_id = ${userId} AND ${claimed}`,
    ...keptGradeChanged({ quizId, userId, changedAt: now }, claimed),
  ];
}

/**
 * The quiz's lowest and highest scores read again from its graded submissions, where `when`
 * holds: a regrade or review can lower the highest or raise the lowest, which no increment undoes.
 */
export const quizScoreRange = (quizId: SQL | string, when: SQL = sql`1`): SQL => sql`
  UPDATE quiz_stats SET
    min_score = (SELECT min(score) FROM submissions WHERE quiz_id = ${quizId} AND status = 'graded'),
    max_score = (SELECT max(score) FROM submissions WHERE quiz_id = ${quizId} AND status = 'graded')
  WHERE quiz_id = ${quizId} AND ${when}`;

/**
 * The statement that keeps a user's grade at a quiz current, in the grading batch and only where
 * its claim (`won`) stands: the attempt count, the first and latest scores by attempt number, the
 * highest and the sum — the sums every policy's kept score is taken from (KEPT_RULES,
 * src/domain/kept-grade.ts), so a read is one row and a policy change needs no recomputation.
 * (SQLite evaluates every SET expression on the row as it was.)
 */
function keepGrade(grade: { quizId: string; userId: string; attempt: number; score: number; at: string }, won: SQL): SQL {
  const { quizId, userId, attempt, score, at } = grade;
  return sql`
    INSERT INTO grades (quiz_id, user_id, attempts, first_attempt, first_score, latest_attempt, latest_score, highest_score, score_sum, updated_at)
    SELECT ${quizId}, ${userId}, 1, ${attempt}, ${score}, ${attempt}, ${score}, ${score}, ${score}, ${at} WHERE ${won}
    ON CONFLICT (quiz_id, user_id) DO UPDATE SET
      attempts = attempts + 1,
      first_score = CASE WHEN excluded.first_attempt < first_attempt THEN excluded.first_score ELSE first_score END,
      first_attempt = min(first_attempt, excluded.first_attempt),
      latest_score = CASE WHEN excluded.latest_attempt > latest_attempt THEN excluded.latest_score ELSE latest_score END,
      latest_attempt = max(latest_attempt, excluded.latest_attempt),
      highest_score = max(highest_score, excluded.highest_score),
      score_sum = score_sum + excluded.score_sum,
      updated_at = excluded.updated_at`;
}
