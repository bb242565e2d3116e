import { type SQL, sql } from "drizzle-orm";
import { encodeTime } from "ulidx";
import { commit, RETURNING_WAKE_UP, type WakeUps } from "../db/after-commit";
import { everyAttemptCounts, keptGradeWaits, keptOf, storedPolicy } from "../db/kept-grade";
import { statement } from "../db/statements";
import type { Database } from "../env";
import { validationFailed } from "../lib/errors";
import { ID_PREFIX } from "../lib/ids";
import { isoNow } from "../lib/time";
import { AGS_SCORE_SCOPE } from "./claims";
import { findLaunch } from "./launches";

/**
 * The passback ledger's writes that other processes make: a submission tied to a launch's line
 * item when it is created, and the ledger row upserted in the batch that changes a user's kept
 * grade. The ledger holds one row per (platform, line item, user) with the latest kept grade; the
 * upsert returns each row it made pending as a wake-up (src/db/after-commit.ts), and the worker
 * (passback.ts) sends each row's current state.
 */

/** A user's kept grade at a quiz stated as values: the kept submission and when the kept grade changed. */
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

/** The kept grade to write, as one SQL row: submission_id, score_given, score_maximum, grading_progress. */
type KeptRow = SQL;

/**
 * The kept grade of a user at a quiz as the batch finds it, under the quiz's grading policy as
 * stored then (D1 runs batches one at a time, so concurrent grades of two attempts each see the
 * other's), by the kept grade's one rule (src/domain/kept-grade.ts, its SQL in src/db/kept-grade.ts):
 * the kept submission's points, or under `average`, where every attempt counts, the average score
 * out of 100 with the latest graded attempt named. `PendingManual`, without a score, while an
 * attempt awaiting review holds the kept grade back.
 */
function keptFromSubmissions(quizId: string, userId: string): KeptRow {
  const mine = sql`SELECT id, attempt, status, score, points_earned, points_possible FROM submissions
    WHERE quiz_id = ${quizId} AND user_id = ${userId} AND status IN ('graded', 'needs_review')`;
  // Read once, in p, and named by every per-policy expression below.
  const policy = sql.raw("p.policy");
  return sql`
    SELECT coalesce(k.id, (SELECT id FROM (${mine}) ORDER BY attempt DESC LIMIT 1)) AS submission_id,
      CASE WHEN q.pending THEN NULL WHEN q.every THEN (SELECT round(avg(score), 2) FROM (${mine}) WHERE status = 'graded')
        ELSE k.points_earned END AS score_given,
      CASE WHEN q.pending THEN NULL WHEN q.every THEN 100 ELSE k.points_possible END AS score_maximum,
      CASE WHEN q.pending THEN 'PendingManual' ELSE 'FullyGraded' END AS grading_progress
    FROM (SELECT ${keptGradeWaits(mine, policy)} AS pending, ${everyAttemptCounts(policy)} AS every,
            (SELECT id FROM (${keptOf(mine, policy)})) AS kept_id
          FROM (SELECT ${storedPolicy(quizId)} AS policy) AS p) AS q
    LEFT JOIN (${mine}) AS k ON k.id = q.kept_id
    WHERE k.id IS NOT NULL OR q.pending`;
}

/** A kept grade given as values (what a test or a tool states outright). */
function keptFromValues(grade: KeptGrade): KeptRow {
  const { submission } = grade;
  const pending = submission.status === "needs_review";
  return sql`SELECT ${submission.id} AS submission_id, ${pending ? null : submission.pointsEarned} AS score_given,
    ${pending ? null : submission.pointsPossible} AS score_maximum, ${pending ? "PendingManual" : "FullyGraded"} AS grading_progress`;
}

/**
 * The statement that keeps the ledger: for every line item the user's submissions of the quiz
 * were tied to, the row of (platform, line item, user) set to the kept grade `kept` selects and
 * made pending (its version moved, its attempts counted afresh), only where `when` holds (the
 * batch's claim) and never over a later kept grade (timestamps compared, so batches that commit
 * out of order keep the latest). A user with no tied submission costs one index look-up and
 * writes nothing. A pending row keeps its next_retry_at: a platform's Retry-After holds for the
 * new score too.
 */
function ledgerUpsert(quizId: string, userId: string, changedAt: string, kept: KeptRow, when: SQL): SQL {
  const now = Date.now();
  // A fresh lpb_ id per row inserted: the time part of a ULID, then 16 random lower-case hex
  // digits, which are Crockford base32 digits too.
  const idHead = `${ID_PREFIX.ltiPassback}_${encodeTime(now, 10).toLowerCase()}`;
  return sql`
    INSERT INTO lti_passbacks (id, platform_id, lineitem, user_id, quiz_id, lti_user_id, submission_id, score_given,
      score_maximum, grading_progress, score_timestamp, version, status, attempts, created_at, updated_at)
    SELECT ${idHead} || lower(hex(randomblob(8))), t.platform_id, t.lineitem, ${userId}, ${quizId}, t.lti_user_id, k.submission_id,
      k.score_given, k.score_maximum, k.grading_progress, ${changedAt}, 1, 'pending', 0, ${isoNow(now)}, ${isoNow(now)}
    FROM (SELECT platform_id, lineitem, max(lti_user_id) AS lti_user_id FROM lti_submissions
          WHERE quiz_id = ${quizId} AND user_id = ${userId} GROUP BY platform_id, lineitem) AS t, (${kept}) AS k
    WHERE ${when}
    ON CONFLICT (platform_id, lineitem, user_id) DO UPDATE SET
      quiz_id = excluded.quiz_id, lti_user_id = excluded.lti_user_id, submission_id = excluded.submission_id,
      score_given = excluded.score_given, score_maximum = excluded.score_maximum,
      grading_progress = excluded.grading_progress, score_timestamp = excluded.score_timestamp,
      version = lti_passbacks.version + 1, status = 'pending', attempts = 0,
      next_retry_at = CASE WHEN lti_passbacks.status = 'pending' THEN lti_passbacks.next_retry_at END,
      updated_at = excluded.updated_at
    WHERE excluded.score_timestamp >= lti_passbacks.score_timestamp
    ${RETURNING_WAKE_UP.ltiPassback}`;
}

/**
 * What the grading batch includes whenever a user's kept grade at a quiz may have changed (a
 * grade, a deadline's grade, a review, a regrade), after its claim and conditioned on it: the
 * ledger row set to the kept grade the batch finds. `changedAt` is the change's time (the score's
 * timestamp).
 */
export function keptGradeStatement(change: { quizId: string; userId: string; changedAt: string }, when: SQL): SQL {
  return ledgerUpsert(change.quizId, change.userId, change.changedAt, keptFromSubmissions(change.quizId, change.userId), when);
}

/**
 * A kept grade stated outright, recorded on its own batch, its ledger rows added to `wakeUps` (the
 * ledger's mechanics apart from grading: its tests drive scores, progress and timestamps through here).
 */
export async function recordKeptGrade(db: Database, wakeUps: WakeUps, grade: KeptGrade): Promise<void> {
  const { quizId, userId, submission } = grade;
  await commit(db, wakeUps, [statement(db, ledgerUpsert(quizId, userId, submission.changedAt, keptFromValues(grade), sql`1`))]);
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
