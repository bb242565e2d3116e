import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { commit, type WakeUps } from "../../db/after-commit";
import { concurrentUpdate, updatedAfter, WRITE_ATTEMPTS } from "../../db/optimistic";
import { eventStatement } from "../../db/outbox";
import { users } from "../../db/schema";
import { prepared, statement } from "../../db/statements";
import { previousAttributes } from "../../domain/events";
import { normalizeEmail, type Role } from "../../domain/users";
import type { Database } from "../../env";
import { conflict, errorChainText, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import type { User } from "./users.schemas";

type UserRow = typeof users.$inferSelect;

export function serializeUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name ?? "",
    // Null for users without one (created so, or an LTI launch's); a deleted user's is erased to "".
    email: row.email ?? (row.deletedAt === null ? null : ""),
    role: row.role,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

const emailTaken = () => conflict("email_taken", "A user with that e-mail already exists.");

/** The unique index on the normalized e-mail is the authority; this only translates its error. */
async function guardEmail<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const text = errorChainText(error);
    if (text.includes("UNIQUE") && text.includes("email_normalized")) throw emailTaken();
    throw error;
  }
}

export async function listUsers(db: Database, filter: { after?: string; role?: Role; email?: string }, limit: number) {
  const rows = await db
    .select()
    .from(users)
    .where(
      and(
        isNull(users.deletedAt),
        filter.after === undefined ? undefined : gt(users.id, filter.after),
        filter.role === undefined ? undefined : eq(users.role, filter.role),
        filter.email === undefined ? undefined : eq(users.emailNormalized, normalizeEmail(filter.email)),
      ),
    )
    .orderBy(asc(users.id))
    .limit(limit + 1);
  return rows.map(serializeUser);
}

export async function getUserRow(db: Database, id: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)));
  if (!row) throw notFound("User");
  return row;
}

/** The stored form of an address: with its normalized twin, which the unique index holds (SQLite lets any number of rows hold NULL). */
const emailColumns = (email: string | null) => ({ email, emailNormalized: email === null ? null : normalizeEmail(email) });

/** The user and its user.created event, in one batch: a taken e-mail fails both. */
export async function createUser(db: Database, wakeUps: WakeUps, input: { name: string; email: string | null; role: Role }) {
  const now = isoNow();
  const row: UserRow = {
    id: newId("user"),
    name: input.name,
    ...emailColumns(input.email),
    role: input.role,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  const user = serializeUser(row);
  await guardEmail(
    commit(db, wakeUps, [
      prepared(db, db.insert(users).values(row)),
      eventStatement(db, { type: "user.created", object: user, userId: row.id }),
    ]),
  );
  return user;
}

/**
 * Writes `next` over the user as it was read, with its event, only if the row is still the one
 * read (same updated_at, not deleted): the event then describes exactly the change made.
 * Returns whether it was written.
 */
async function writeOver(
  db: Database,
  wakeUps: WakeUps,
  read: UserRow,
  next: UserRow,
  event: D1PreparedStatement,
  extra: D1PreparedStatement[] = [],
) {
  const { id: _id, createdAt: _createdAt, ...changes } = next;
  const [write] = await commit(db, wakeUps, [
    prepared(
      db,
      db
        .update(users)
        .set(changes)
        .where(and(eq(users.id, read.id), isNull(users.deletedAt), eq(users.updatedAt, read.updatedAt))),
    ),
    event,
    ...extra,
  ]);
  return write?.meta.changes === 1;
}

export async function updateUser(
  db: Database,
  wakeUps: WakeUps,
  id: string,
  patch: { name?: string; email?: string | null; role?: Role },
) {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const read = await getUserRow(db, id);
    const next: UserRow = {
      ...read,
      ...(patch.name === undefined ? {} : { name: patch.name }),
      ...(patch.email === undefined ? {} : emailColumns(patch.email)),
      ...(patch.role === undefined ? {} : { role: patch.role }),
      updatedAt: updatedAfter(read.updatedAt),
    };
    const before = serializeUser(read);
    const after = serializeUser(next);
    const event = eventStatement(
      db,
      { type: "user.updated", object: after, previous: previousAttributes(before, after), userId: id },
      "after-change",
    );
    if (await guardEmail(writeOver(db, wakeUps, read, next, event))) return after;
  }
  throw concurrentUpdate("The user");
}

/**
 * Name and e-mail erased from every stored event of the user (docs/webhooks.md), once the user is
 * deleted: conditioned on that, so that a deletion that lost a race redacts nothing.
 */
const redactEvents = (db: Database, id: string) =>
  statement(
    db,
    sql`UPDATE events SET data = json_set(data, '$.object.name', '', '$.object.email', ''),
          previous_attributes = json_remove(previous_attributes, '$.name', '$.email')
        WHERE user_id = ${id} AND EXISTS (SELECT 1 FROM users WHERE id = ${id} AND deleted_at IS NOT NULL)`,
  );

/**
 * Erases the user's name and e-mail, from the user and from its events. The row stays, so their
 * graded submissions keep pointing at it and the analytics they fed do not change; the user is
 * gone from every read.
 */
export async function deleteUser(db: Database, wakeUps: WakeUps, id: string) {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const read = await getUserRow(db, id);
    const now = updatedAfter(read.updatedAt);
    const next: UserRow = { ...read, name: null, email: null, emailNormalized: null, updatedAt: now, deletedAt: now };
    const event = eventStatement(db, { type: "user.deleted", object: serializeUser(next), userId: id }, "after-change");
    if (await writeOver(db, wakeUps, read, next, event, [redactEvents(db, id)])) return;
  }
  throw concurrentUpdate("The user");
}
