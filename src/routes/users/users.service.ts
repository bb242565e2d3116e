import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { users } from "../../db/schema";
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
    email: row.email ?? "",
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

export async function createUser(db: Database, input: { name: string; email: string; role: Role }) {
  const now = isoNow();
  const row: UserRow = {
    id: newId("user"),
    name: input.name,
    email: input.email,
    emailNormalized: normalizeEmail(input.email),
    role: input.role,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  await guardEmail(db.insert(users).values(row));
  return serializeUser(row);
}

export async function updateUser(db: Database, id: string, patch: { name?: string; email?: string; role?: Role }) {
  const [row] = await guardEmail(
    db
      .update(users)
      .set({
        ...patch,
        ...(patch.email === undefined ? {} : { emailNormalized: normalizeEmail(patch.email) }),
        updatedAt: isoNow(),
      })
      .where(and(eq(users.id, id), isNull(users.deletedAt)))
      .returning(),
  );
  if (!row) throw notFound("User");
  return serializeUser(row);
}

/**
 * Erases the user's name and e-mail. The row stays, so their graded submissions keep pointing
 * at it and the analytics they fed do not change; the user is gone from every read.
 */
export async function deleteUser(db: Database, id: string) {
  const now = isoNow();
  const [row] = await db
    .update(users)
    .set({ name: null, email: null, emailNormalized: null, updatedAt: now, deletedAt: now })
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .returning({ id: users.id });
  if (!row) throw notFound("User");
}
