import { type SQL, sql } from "drizzle-orm";
import type { StoredAnswerResult } from "../../domain/grading";
import { toMicro } from "../../domain/points";
import { bucketOf } from "../../domain/score-distribution";
import { itemStatsOnRegrade } from "../analytics";
import { answerPoints } from "./grade.service";
import type { SubmissionRow } from "./submissions.service";

/** A graded submission's new grade: what a regrade or a later review makes of it. */
export interface NewGrade {
  results: StoredAnswerResult[];
  score: number;
  points_earned: number;
  points_possible: number;
}

/**
 * The statements that move every aggregate from a graded submission's stored grade to `next`,
 * each only where `claimed` (the claim that wrote `next`) stands: item sums and totals, the
 * quiz's mean and M2 with one value replaced (mean' = mean + d/n, M2' = M2 + d·(x1 + x0 − mean −
 * mean')) and its buckets, the user's mean, lowest and highest, the user's grade, and per-question
 * right answers and points. The quiz's lowest and highest scores are the caller's to read again.
 */
export function movedStatements(row: SubmissionRow, next: NewGrade, claimed: SQL, now: string): SQL[] {
  const { quizId, userId, attempt } = row;
  const before = (row.results ?? []) as StoredAnswerResult[];
  const x0 = row.score ?? 0;
  const x1 = next.score;
  const d = x1 - x0;
  const b0 = `$[${bucketOf(x0)}]`;
  const b1 = `$[${bucketOf(x1)}]`;
  const moved = sql`json_set(buckets, ${b0}, json_extract(buckets, ${b0}) - 1)`;
  return [
    ...itemStatsOnRegrade(
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
    questionStatsDelta(quizId, before, next.results, claimed),
  ];
}

/** question_stats moved by each answer's change: right answers and points (micro). */
function questionStatsDelta(quizId: string, before: StoredAnswerResult[], after: StoredAnswerResult[], claimed: SQL): SQL {
  const old = new Map(before.map((a) => [a.question_id, a]));
  const rows = after.map((a) => {
    const was = old.get(a.question_id);
    return [
      a.question_id,
      Number(a.correct) - Number(was?.correct ?? false),
      toMicro(a.points_earned) - toMicro(was?.points_earned ?? 0),
    ];
  });
  return sql`
    INSERT INTO question_stats (quiz_id, question_id, attempts, correct_count, points_earned_micro)
    SELECT ${quizId}, json_extract(value, '$[0]'), 0, json_extract(value, '$[1]'), json_extract(value, '$[2]')
    FROM json_each(${JSON.stringify(rows)}) WHERE ${claimed}
    ON CONFLICT (quiz_id, question_id) DO UPDATE SET
      correct_count = correct_count + excluded.correct_count,
      points_earned_micro = points_earned_micro + excluded.points_earned_micro`;
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
