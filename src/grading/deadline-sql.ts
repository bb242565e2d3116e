import { type SQL, sql } from "drizzle-orm";

/**
 * Deadlines in SQL, read from the quiz's settings as they stand when the statement runs (the rule
 * in values is deadlineFor, domain/attempts.ts). D1 runs batches one at a time, so a submission
 * created in one batch and a settings change made in another meet in one order or the other:
 * either the creation reads the new settings, or the change's batch finds the new submission and
 * moves its deadline. No open submission keeps a deadline later than the settings allow (docs/security.md).
 */

/** The latest deadline `settings` (a quizzes.settings JSON) allow a submission created at `createdAt` with `extraSeconds` of extra time. */
function allowedDeadline(settings: SQL, createdAt: SQL, extraSeconds: SQL): SQL {
  const until = sql`json_extract(${settings}, '$.available_until')`;
  // NULL without a time limit: NULL + n, '+' || NULL and strftime(…, NULL) are all NULL.
  // SQLite's date arithmetic is in integer milliseconds, like the created_at it starts from.
  const limit = sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${createdAt}, '+' || (json_extract(${settings}, '$.time_limit_seconds') + ${extraSeconds}) || ' seconds')`;
  return sql`(CASE WHEN ${limit} IS NULL THEN ${until} WHEN ${until} IS NULL OR ${limit} < ${until} THEN ${limit} ELSE ${until} END)`;
}

const extraTime = (quizId: SQL | string, userId: SQL | string) =>
  sql`coalesce((SELECT extra_time_seconds FROM accommodations WHERE quiz_id = ${quizId} AND user_id = ${userId}), 0)`;

/** A new submission's deadline, from the quiz's settings and the user's extra time as the statement finds them. */
export const newSubmissionDeadline = (quizId: string, userId: string, createdAt: string): SQL =>
  sql`(SELECT ${allowedDeadline(sql`settings`, sql`${createdAt}`, extraTime(quizId, userId))} FROM quizzes WHERE id = ${quizId})`;

/** Whether the quiz's window, as stored when the statement runs, is open at `now` (from inclusive, until exclusive). */
export const windowOpen = (quizId: string, now: string): SQL =>
  sql`EXISTS (SELECT 1 FROM quizzes WHERE id = ${quizId}
        AND (json_extract(settings, '$.available_from') IS NULL OR json_extract(settings, '$.available_from') <= ${now})
        AND (json_extract(settings, '$.available_until') IS NULL OR ${now} < json_extract(settings, '$.available_until')))`;

/**
 * Moves the deadline of each open submission of the quiz to what the quiz's stored settings allow
 * when it is earlier: a window that ends sooner or a shorter time limit (with the user's extra
 * time as it stands) closes open submissions sooner; a deadline is never made later. Idempotent,
 * so it may run in every batch that changes the settings, whether or not that change lands.
 */
export const tightenOpenDeadlines = (quizId: string): SQL => {
  const allowed = allowedDeadline(
    sql`quizzes.settings`,
    sql`submissions.created_at`,
    extraTime(sql`submissions.quiz_id`, sql`submissions.user_id`),
  );
  return sql`
    UPDATE submissions SET deadline_at = moved.at
    FROM (SELECT submissions.id, ${allowed} AS at FROM submissions JOIN quizzes ON quizzes.id = submissions.quiz_id
          WHERE submissions.quiz_id = ${quizId} AND submissions.status = 'open') AS moved
    WHERE submissions.id = moved.id AND moved.at IS NOT NULL
      AND (submissions.deadline_at IS NULL OR moved.at < submissions.deadline_at)`;
};
