import { sql } from "drizzle-orm";
import { statement } from "../db/statements";
import { generateReportToken } from "../domain/credential-format";
import type { Database } from "../env";
import { sha256Hex } from "../lib/crypto";
import { validationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";

/**
 * Report sessions (§17): a token that reads the reports of the quizzes it names, and nothing
 * else. Shown once, stored only as its SHA-256.
 */

export const MAX_REPORT_QUIZZES = 50;

interface ReportSessionRow {
  id: string;
  quiz_ids: string;
  expires_at: string;
  created_at: string;
  revoked_at: string | null;
}

function reportSessionView(row: ReportSessionRow) {
  return {
    id: row.id,
    quiz_ids: JSON.parse(row.quiz_ids) as string[],
    expires_at: row.expires_at,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}
export type ReportSessionView = ReturnType<typeof reportSessionView>;

/**
 * A new report session: its token (to show once), its representation and the statement that
 * writes it. Every quiz must exist: 400 naming the first missing `quiz_ids[i]`.
 */
export async function createReportSession(db: Database, input: { quizIds: string[]; expiresIn: number }, now = Date.now()) {
  const quizIds = [...new Set(input.quizIds)];
  const placeholders = quizIds.map(() => "?").join(", ");
  const found = await db.$client
    .prepare(`SELECT id FROM quizzes WHERE id IN (${placeholders})`)
    .bind(...quizIds)
    .all<{ id: string }>();
  const known = new Set(found.results.map((r) => r.id));
  const missing = input.quizIds.findIndex((id) => !known.has(id));
  if (missing >= 0) throw validationFailed([{ path: `quiz_ids.${missing}`, message: "No such quiz." }]);
  const token = generateReportToken();
  const row: ReportSessionRow = {
    id: newId("reportSession", now),
    quiz_ids: JSON.stringify(quizIds),
    expires_at: isoNow(now + input.expiresIn * 1000),
    created_at: isoNow(now),
    revoked_at: null,
  };
  const statements = [
    statement(
      db,
      sql`INSERT INTO report_sessions (id, token_hash, quiz_ids, expires_at, created_at)
          VALUES (${row.id}, ${await sha256Hex(token)}, ${row.quiz_ids}, ${row.expires_at}, ${row.created_at})`,
    ),
  ];
  return { token, session: reportSessionView(row), statements };
}

export async function getReportSession(db: Database, id: string): Promise<ReportSessionView | undefined> {
  const row = await db.$client
    .prepare("SELECT id, quiz_ids, expires_at, created_at, revoked_at FROM report_sessions WHERE id = ?")
    .bind(id)
    .first<ReportSessionRow>();
  return row ? reportSessionView(row) : undefined;
}

export const revokeReportSession = (db: Database, id: string, now = Date.now()) => [
  statement(db, sql`UPDATE report_sessions SET revoked_at = ${isoNow(now)} WHERE id = ${id} AND revoked_at IS NULL`),
];

/** What a report token grants, as authentication reads it. */
export interface ReportGrant {
  sessionId: string;
  quizIds: string[];
  expiresAt: string;
}

/** The live report session of a token, or why there is none; read from D1's primary, like a learner session. */
export async function readReportSession(
  d1: D1Database,
  token: string,
  now = isoNow(),
): Promise<ReportGrant | "expired" | undefined> {
  const row = await d1
    .prepare("SELECT id, quiz_ids, expires_at FROM report_sessions WHERE token_hash = ? AND revoked_at IS NULL")
    .bind(await sha256Hex(token))
    .first<{ id: string; quiz_ids: string; expires_at: string }>();
  if (!row) return undefined;
  if (row.expires_at <= now) return "expired";
  return { sessionId: row.id, quizIds: JSON.parse(row.quiz_ids) as string[], expiresAt: row.expires_at };
}
