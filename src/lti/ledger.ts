import { type SQL, sql } from "drizzle-orm";
import { encodeTime } from "ulidx";
import { statement } from "../db/statements";
import type { Database } from "../env";
import { validationFailed } from "../lib/errors";
import { ID_PREFIX } from "../lib/ids";
import { isoNow } from "../lib/time";
import { AGS_SCORE_SCOPE } from "./claims";
import { findLaunch } from "./launches";
import { wakePassbacks } from "./messages";

/**
 * The passback ledger's writes that other processes make: a submission tied to a launch's line
 * item when it is created, and the ledger row upserted in the batch that changes a user's kept
 * grade. The ledger holds one row per (platform, line item, user) with the latest kept grade; the
 * worker (passback.ts) sends each row's current state.
 */

/** What a grade knows of a user's kept grade at a quiz, the moment it changes. */
export interface KeptGrade {
  quizId: string;
  userId: string;
  /** The kept submission: its points, whether it waits for a review, and when the kept grade changed. */
  submission: {
    id: string;
    pointsEarned: number;
    pointsPossible: number;
    status: "graded" | "needs_review";
    /** ISO 8601 with milliseconds: the grade's, review's or regrade's time (the score's timestamp). */
    changedAt: string;
  };
}

/** The column the upsert returns its rows' ids under, so that the hand-over finds them in any batch's results. */
const RETURNED = "lti_passback_id";

/**
 * The statement that keeps the ledger: for every line item the user's submissions of the quiz
 * were tied to, the row of (platform, line item, user) set to this kept grade and made pending
 * (its version moved, its attempts counted afresh), only where `when` holds (the batch's claim)
 * and never over a later kept grade (timestamps compared, so batches that commit out of order
 * keep the latest). A user with no tied submission costs one index look-up and writes nothing.
 * A pending row keeps its next_retry_at: a platform's Retry-After holds for the new score too.
 */
export function keptGradeStatement(db: Database, grade: KeptGrade, when: SQL): D1PreparedStatement {
  const { quizId, userId, submission } = grade;
  const pending = submission.status === "needs_review";
  const now = Date.now();
  // A fresh lpb_ id per row inserted: the time part of a ULID, then 16 random lower-case hex
  // digits, which are Crockford base32 digits too.
  const idHead = `${ID_PREFIX.ltiPassback}_${encodeTime(now, 10).toLowerCase()}`;
  return statement(
    db,
    sql`
    INSERT INTO lti_passbacks (id, platform_id, lineitem, user_id, quiz_id, lti_user_id, submission_id, score_given,
      score_maximum, grading_progress, score_timestamp, version, status, attempts, created_at, updated_at)
    SELECT ${idHead} || lower(hex(randomblob(8))), t.platform_id, t.lineitem, ${userId}, ${quizId}, t.lti_user_id, ${submission.id},
      ${pending ? null : submission.pointsEarned}, ${pending ? null : submission.pointsPossible},
      ${pending ? "PendingManual" : "FullyGraded"}, ${submission.changedAt}, 1, 'pending', 0, ${isoNow(now)}, ${isoNow(now)}
    FROM (SELECT platform_id, lineitem, max(lti_user_id) AS lti_user_id FROM lti_submissions
          WHERE quiz_id = ${quizId} AND user_id = ${userId} GROUP BY platform_id, lineitem) AS t
    WHERE ${when}
    ON CONFLICT (platform_id, lineitem, user_id) DO UPDATE SET
      quiz_id = excluded.quiz_id, lti_user_id = excluded.lti_user_id, submission_id = excluded.submission_id,
      score_given = excluded.score_given, score_maximum = excluded.score_maximum,
      grading_progress = excluded.grading_progress, score_timestamp = excluded.score_timestamp,
      version = lti_passbacks.version + 1, status = 'pending', attempts = 0,
      next_retry_at = CASE WHEN lti_passbacks.status = 'pending' THEN lti_passbacks.next_retry_at END,
      updated_at = excluded.updated_at
    WHERE excluded.score_timestamp >= lti_passbacks.score_timestamp
    RETURNING id AS ${sql.raw(RETURNED)}`,
  );
}

/**
 * After the batch: hands every ledger row its keptGradeStatements wrote to the LTI queue. Takes
 * the batch's results as they are; the rows are found by the column the upsert returns.
 */
export async function handOverPassbacks(env: Env, results: readonly D1Result[]): Promise<void> {
  const ids = results.flatMap((result) =>
    ((result.results ?? []) as Record<string, unknown>[]).flatMap((row) =>
      typeof row[RETURNED] === "string" ? [row[RETURNED]] : [],
    ),
  );
  if (ids.length > 0) await wakePassbacks(env, ids);
}

/** A kept grade recorded on its own batch, and handed over: what the grading batch does, as one call. */
export async function recordKeptGrade(env: Env, db: Database, grade: KeptGrade): Promise<void> {
  const results = await db.$client.batch([keptGradeStatement(db, grade, sql`1`)]);
  await handOverPassbacks(env, results);
}

/**
 * For a submission created with lti_launch_id: the launch must be this user's at this quiz
 * (else 400). Answers the statement that ties the submission to the launch's line item, to run
 * in the submission's batch after its INSERT (written only if the submission was), or undefined
 * when the launch grants no line item with the score scope (nothing is sent back).
 */
export async function launchTie(
  db: Database,
  launchId: string,
  quizId: string,
  userId: string,
): Promise<((submissionId: string) => D1PreparedStatement) | undefined> {
  const launch = await findLaunch(db, launchId);
  if (!launch) throw validationFailed([{ path: "lti_launch_id", message: "No such launch." }]);
  if (launch.userId !== userId || launch.quizId !== quizId)
    throw validationFailed([{ path: "lti_launch_id", message: "The launch is another user's or another quiz's." }]);
  const lineitem = launch.lineitem;
  if (lineitem === null || !(launch.agsScopes ?? []).includes(AGS_SCORE_SCOPE)) return undefined;
  return (submissionId) =>
    statement(
      db,
      sql`INSERT INTO lti_submissions (submission_id, launch_id, platform_id, lineitem, quiz_id, user_id, lti_user_id)
          SELECT ${submissionId}, ${launch.id}, ${launch.platformId}, ${lineitem}, ${quizId}, ${userId}, ${launch.sub}
          WHERE EXISTS (SELECT 1 FROM submissions WHERE id = ${submissionId})`,
    );
}
