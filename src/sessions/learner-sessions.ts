import { sql } from "drizzle-orm";
import { eventStatement } from "../db/outbox";
import { statement } from "../db/statements";
import { generateLearnerToken } from "../domain/credential-format";
import type { Database } from "../env";
import { sha256Hex } from "../lib/crypto";
import { validationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";

/**
 * Learner sessions (§17): a token that takes one quiz as one user. The token is shown once and
 * stored only as its SHA-256; these functions return the statements of one batch (the session
 * and its event together) for the caller to commit, so that the LTI tool can mint one inside its
 * own batch.
 */

export interface LearnerSessionRow {
  id: string;
  user_id: string;
  quiz_id: string;
  origins: string;
  return_url: string | null;
  lti_launch_id: string | null;
  expires_at: string;
  created_at: string;
  revoked_at: string | null;
}

/** A learner session as the API shows it: never its token. */
function learnerSessionView(row: LearnerSessionRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    quiz_id: row.quiz_id,
    origins: JSON.parse(row.origins) as string[],
    return_url: row.return_url,
    lti_launch_id: row.lti_launch_id,
    expires_at: row.expires_at,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}
export type LearnerSessionView = ReturnType<typeof learnerSessionView>;

export interface LearnerSessionInput {
  userId: string;
  quizId: string;
  expiresIn: number;
  /** Normalised origins (domain/session-origins readOrigin). */
  origins: string[];
  returnUrl: string | null;
  ltiLaunchId?: string | null;
}

/**
 * A new learner session: its token (to show once), its representation, and the statements that
 * write it and `learner_session.created` — written only if the user (not deleted) and the quiz
 * still exist when the batch runs. Commit them, then call `confirmLearnerSession` with the
 * results (400 naming the field when the user or quiz is gone).
 */
export async function createLearnerSession(db: Database, input: LearnerSessionInput, now = Date.now()) {
  const token = generateLearnerToken();
  const tokenHash = await sha256Hex(token);
  const id = newId("learnerSession", now);
  const row: LearnerSessionRow = {
    id,
    user_id: input.userId,
    quiz_id: input.quizId,
    origins: JSON.stringify(input.origins),
    return_url: input.returnUrl,
    lti_launch_id: input.ltiLaunchId ?? null,
    expires_at: isoNow(now + input.expiresIn * 1000),
    created_at: isoNow(now),
    revoked_at: null,
  };
  const session = learnerSessionView(row);
  const statements = [
    statement(
      db,
      sql`INSERT INTO learner_sessions (id, token_hash, user_id, quiz_id, origins, return_url, lti_launch_id, expires_at, created_at)
          SELECT ${id}, ${tokenHash}, ${row.user_id}, ${row.quiz_id}, ${row.origins}, ${row.return_url}, ${row.lti_launch_id},
            ${row.expires_at}, ${row.created_at}
          WHERE EXISTS (SELECT 1 FROM users WHERE id = ${row.user_id} AND deleted_at IS NULL)
            AND EXISTS (SELECT 1 FROM quizzes WHERE id = ${row.quiz_id})
          RETURNING id AS learner_session_written`,
    ),
    eventStatement(db, { type: "learner_session.created", object: session }, "after-change"),
  ];
  return { token, session, statements };
}

/** After the batch of createLearnerSession: the session was written, or 400 naming the user or quiz that is missing. */
export async function confirmLearnerSession(db: Database, results: readonly D1Result[], input: LearnerSessionInput) {
  const written = results.some((r) => (r.results ?? []).some((row) => (row as Record<string, unknown>).learner_session_written));
  if (written) return;
  const [user, quiz] = await db.$client.batch<{ n: number }>([
    db.$client.prepare("SELECT count(*) AS n FROM users WHERE id = ? AND deleted_at IS NULL").bind(input.userId),
    db.$client.prepare("SELECT count(*) AS n FROM quizzes WHERE id = ?").bind(input.quizId),
  ]);
  const errors = [];
  if (!user?.results[0]?.n) errors.push({ path: "user_id", message: "No such user." });
  if (!quiz?.results[0]?.n) errors.push({ path: "quiz_id", message: "No such quiz." });
  throw validationFailed(errors.length > 0 ? errors : [{ path: "user_id", message: "No such user." }]);
}

const SELECT_SESSION =
  "SELECT id, user_id, quiz_id, origins, return_url, lti_launch_id, expires_at, created_at, revoked_at FROM learner_sessions";

export async function getLearnerSession(db: Database, id: string): Promise<LearnerSessionView | undefined> {
  const row = await db.$client.prepare(`${SELECT_SESSION} WHERE id = ?`).bind(id).first<LearnerSessionRow>();
  return row ? learnerSessionView(row) : undefined;
}

/**
 * The statements that revoke a session and write `learner_session.revoked` (only if this revoked
 * it: a second revocation writes nothing). The token is refused from the commit on, everywhere:
 * every request looks its session up in D1's primary (readLearnerSession), nothing caches it.
 */
export function revokeLearnerSession(db: Database, session: LearnerSessionView, now = Date.now()) {
  const revokedAt = isoNow(now);
  return [
    statement(db, sql`UPDATE learner_sessions SET revoked_at = ${revokedAt} WHERE id = ${session.id} AND revoked_at IS NULL`),
    eventStatement(db, { type: "learner_session.revoked", object: { ...session, revoked_at: revokedAt } }, "after-change"),
  ];
}

/** What a learner token grants, as authentication reads it. */
export interface LearnerGrant {
  sessionId: string;
  userId: string;
  quizId: string;
  origins: string[];
  returnUrl: string | null;
  ltiLaunchId: string | null;
  expiresAt: string;
}

/**
 * The live session of a token, or why there is none. Read from the D1 binding itself (the
 * primary, not a replica's session), so that a revocation is seen by the next request anywhere;
 * a deleted user's or quiz's session is no session.
 */
export async function readLearnerSession(
  d1: D1Database,
  token: string,
  now = isoNow(),
): Promise<LearnerGrant | "expired" | undefined> {
  const row = await d1
    .prepare(
      `SELECT s.id, s.user_id, s.quiz_id, s.origins, s.return_url, s.lti_launch_id, s.expires_at
       FROM learner_sessions s
       JOIN users u ON u.id = s.user_id AND u.deleted_at IS NULL
       JOIN quizzes q ON q.id = s.quiz_id
       WHERE s.token_hash = ? AND s.revoked_at IS NULL`,
    )
    .bind(await sha256Hex(token))
    .first<Omit<LearnerSessionRow, "created_at" | "revoked_at">>();
  if (!row) return undefined;
  if (row.expires_at <= now) return "expired";
  return {
    sessionId: row.id,
    userId: row.user_id,
    quizId: row.quiz_id,
    origins: JSON.parse(row.origins) as string[],
    returnUrl: row.return_url,
    ltiLaunchId: row.lti_launch_id,
    expiresAt: row.expires_at,
  };
}
