import type { ltiPassbacks } from "../db/lti-schema";

export type PassbackRow = typeof ltiPassbacks.$inferSelect;

/** A ledger row as GET /v1/lti/passbacks lists it and lti.passback.failed carries it: no lease, no version. */
export function serializePassback(row: PassbackRow) {
  return {
    id: row.id,
    platform_id: row.platformId,
    quiz_id: row.quizId,
    user_id: row.userId,
    submission_id: row.submissionId,
    lineitem: row.lineitem,
    score_given: row.scoreGiven,
    score_maximum: row.scoreMaximum,
    grading_progress: row.gradingProgress,
    timestamp: row.scoreTimestamp,
    status: row.status,
    attempts: row.attempts,
    last_response_status: row.lastResponseStatus,
    last_error: row.lastError,
    next_retry_at: row.nextRetryAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The score a ledger row sends (AGS 2.0 §3.4, application/vnd.ims.lis.v1.score+json). */
export function scoreOf(row: PassbackRow) {
  const fullyGraded = row.gradingProgress === "FullyGraded";
  return {
    userId: row.ltiUserId,
    // Omitted while PendingManual: the provisional points would show in the gradebook as the grade.
    ...(fullyGraded ? { scoreGiven: row.scoreGiven ?? 0, scoreMaximum: row.scoreMaximum ?? 0 } : {}),
    activityProgress: "Completed",
    gradingProgress: row.gradingProgress,
    timestamp: row.scoreTimestamp,
  };
}

/** `{lineitem}/scores`, the query string (if any) kept where it was; undefined when the line item is not a URL. */
export function scoresUrl(lineitem: string): string | undefined {
  try {
    const url = new URL(lineitem);
    url.pathname = `${url.pathname.replace(/\/+$/, "")}/scores`;
    return url.href;
  } catch {
    return undefined;
  }
}
