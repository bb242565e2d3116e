import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { accommodations, quizzes, users } from "../../db/schema";
import { prepared, statement } from "../../db/statements";
import type { Database } from "../../env";
import { notFound } from "../../lib/errors";
import { isoNow } from "../../lib/time";
import type { Accommodation } from "./accommodations.schemas";

type AccommodationRow = typeof accommodations.$inferSelect;

function serializeAccommodation(row: AccommodationRow): Accommodation {
  return {
    quiz_id: row.quizId,
    user_id: row.userId,
    extra_time_seconds: row.extraTimeSeconds,
    extra_attempts: row.extraAttempts,
    updated_at: row.updatedAt,
  };
}

/** Ordered by user id; a deleted user's accommodation is gone from reads, as the user is. */
export async function listAccommodations(db: Database, quizId: string, afterUserId: string | undefined, limit: number) {
  const [quiz, rows] = await db.batch([
    db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.id, quizId)),
    db
      .select({ accommodation: accommodations })
      .from(accommodations)
      .innerJoin(users, eq(users.id, accommodations.userId))
      .where(
        and(
          eq(accommodations.quizId, quizId),
          isNull(users.deletedAt),
          afterUserId === undefined ? undefined : gt(accommodations.userId, afterUserId),
        ),
      )
      .orderBy(asc(accommodations.userId))
      .limit(limit + 1),
  ]);
  if (quiz.length === 0) throw notFound("Quiz");
  return rows.map((r) => serializeAccommodation(r.accommodation));
}

/**
 * One atomic round trip: the two existence checks, and the upsert guarded by the same
 * conditions, so that a quiz or user deleted between check and write gets no accommodation.
 */
export async function putAccommodation(
  db: Database,
  quizId: string,
  userId: string,
  input: { extra_time_seconds: number; extra_attempts: number },
): Promise<Accommodation> {
  const row: AccommodationRow = {
    quizId,
    userId,
    extraTimeSeconds: input.extra_time_seconds,
    extraAttempts: input.extra_attempts,
    updatedAt: isoNow(),
  };
  const [quiz, user, write] = await db.$client.batch([
    prepared(db, db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.id, quizId))),
    prepared(
      db,
      db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), isNull(users.deletedAt))),
    ),
    // SQLite needs a WHERE on an upsert's SELECT anyway: without one it reads ON CONFLICT as a join's ON.
    statement(
      db,
      sql`INSERT INTO accommodations (quiz_id, user_id, extra_time_seconds, extra_attempts, updated_at)
          SELECT ${row.quizId}, ${row.userId}, ${row.extraTimeSeconds}, ${row.extraAttempts}, ${row.updatedAt}
          WHERE EXISTS (SELECT 1 FROM quizzes WHERE id = ${quizId})
            AND EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND deleted_at IS NULL)
          ON CONFLICT (quiz_id, user_id) DO UPDATE SET
            extra_time_seconds = excluded.extra_time_seconds,
            extra_attempts = excluded.extra_attempts,
            updated_at = excluded.updated_at`,
    ),
  ]);
  if (!quiz?.results.length) throw notFound("Quiz");
  if (!user?.results.length || write?.meta.changes !== 1) throw notFound("User");
  return serializeAccommodation(row);
}

export async function deleteAccommodation(db: Database, quizId: string, userId: string) {
  const deleted = await db
    .delete(accommodations)
    .where(and(eq(accommodations.quizId, quizId), eq(accommodations.userId, userId)))
    .returning({ userId: accommodations.userId });
  if (deleted.length === 0) throw notFound("Accommodation");
}
