import { and, eq, isNull, sql } from "drizzle-orm";
import { commit, type WakeUps } from "../db/after-commit";
import { ltiIdentities } from "../db/lti-schema";
import { updatedAfter } from "../db/optimistic";
import { eventStatement } from "../db/outbox";
import { users } from "../db/schema";
import { prepared, statement } from "../db/statements";
import { previousAttributes } from "../domain/events";
import { normalizeEmail } from "../domain/users";
import type { Database } from "../env";
import { errorChainText } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { roleOf } from "./claims";

/**
 * The user a launch is: found by (platform, sub), or created from the claims' name and e-mail.
 * A launch never takes over an existing account by its e-mail (a platform could claim anyone's
 * address): an address another user has is left out, and a launch without one creates the user
 * with `email: null` (docs/lti.md). The name and e-mail are the first launch's; later launches
 * find the user as it is (PATCH /v1/users/{id} changes it).
 *
 * A roster sync (NRPS, roster.ts) finds or creates each member the same way, and refreshes a
 * found member's name and e-mail from the platform's list: the name when the platform sends one,
 * the e-mail only when no other user has it — never taking over an account by its address.
 */

interface Person {
  sub: string;
  name: string;
  email: string | null;
  roles: string[];
}

async function identityUser(db: Database, platformId: string, sub: string) {
  const [row] = await db
    .select({ userId: ltiIdentities.userId, deletedAt: users.deletedAt })
    .from(ltiIdentities)
    .leftJoin(users, eq(users.id, ltiIdentities.userId))
    .where(and(eq(ltiIdentities.platformId, platformId), eq(ltiIdentities.sub, sub)));
  return row;
}

async function emailTaken(db: Database, email: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.emailNormalized, normalizeEmail(email)));
  return rows.length > 0;
}

/**
 * One batch: the user and its user.created event only while (platform, sub) has no user, and the
 * identity only if that user was inserted. Of concurrent first launches one creates; the others
 * insert nothing and read the identity it wrote.
 */
async function createFor(
  db: Database,
  wakeUps: WakeUps,
  platformId: string,
  person: Person,
  email: string | null,
): Promise<void> {
  const now = isoNow();
  const id = newId("user");
  const role = roleOf(person.roles);
  const noIdentity = sql`NOT EXISTS (SELECT 1 FROM lti_identities WHERE platform_id = ${platformId} AND sub = ${person.sub})`;
  // The user as GET /v1/users/{id} shows it.
  const object = { id, name: person.name, email, role, created_at: now, updated_at: now };
  await commit(db, wakeUps, [
    statement(
      db,
      sql`INSERT INTO users (id, name, email, email_normalized, role, created_at, updated_at)
          SELECT ${id}, ${person.name}, ${email}, ${email === null ? null : normalizeEmail(email)}, ${role}, ${now}, ${now}
          WHERE ${noIdentity}`,
    ),
    eventStatement(db, { type: "user.created", object, userId: id }, "after-change"),
    statement(
      db,
      sql`INSERT INTO lti_identities (platform_id, sub, user_id, created_at)
          SELECT ${platformId}, ${person.sub}, ${id}, ${now} WHERE EXISTS (SELECT 1 FROM users WHERE id = ${id})
          ON CONFLICT (platform_id, sub) DO NOTHING`,
    ),
  ]);
}

/** The user id of the launch's person, creating the user on its first launch. */
export async function userForLaunch(db: Database, wakeUps: WakeUps, platformId: string, person: Person): Promise<string> {
  const found = await identityUser(db, platformId, person.sub);
  if (found && found.deletedAt === null) return found.userId;
  // The user was deleted since: the person gets a new account, as on a first launch.
  if (found)
    await db.run(
      sql`DELETE FROM lti_identities WHERE platform_id = ${platformId} AND sub = ${person.sub} AND user_id = ${found.userId}`,
    );
  let email = person.email !== null && (await emailTaken(db, person.email)) ? null : person.email;
  try {
    await createFor(db, wakeUps, platformId, person, email);
  } catch (error) {
    // The address was taken between the look-up and the insert: the user is created without it.
    if (email === null || !errorChainText(error).includes("email_normalized")) throw error;
    email = null;
    await createFor(db, wakeUps, platformId, person, email);
  }
  const made = await identityUser(db, platformId, person.sub);
  if (!made) throw new Error("no LTI identity after creating it");
  return made.userId;
}

type UserRow = typeof users.$inferSelect;

/** The user as GET /v1/users/{id} and its events show it. */
const userObject = (row: UserRow) => ({
  id: row.id,
  name: row.name ?? "",
  email: row.email,
  role: row.role,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

/**
 * A found member's user with the platform's name (when it sends one) and e-mail (when it sends
 * one no other user holds), with its user.updated event, under the read's updated_at; false when
 * nothing changed or a concurrent write won (the next sync refreshes it).
 */
async function refreshMember(db: Database, wakeUps: WakeUps, userId: string, person: Person): Promise<boolean> {
  const [read] = await db.select().from(users).where(eq(users.id, userId));
  if (!read || read.deletedAt !== null) return false;
  const name = person.name !== "" ? person.name : read.name;
  const wanted = person.email !== null && normalizeEmail(person.email) !== read.emailNormalized ? person.email : undefined;
  const email = wanted !== undefined && !(await emailTaken(db, wanted)) ? wanted : read.email;
  if (name === read.name && email === read.email) return false;
  const next: UserRow = {
    ...read,
    name,
    email,
    emailNormalized: email === null ? null : normalizeEmail(email),
    updatedAt: updatedAfter(read.updatedAt),
  };
  const before = userObject(read);
  const after = userObject(next);
  try {
    const [write] = await commit(db, wakeUps, [
      prepared(
        db,
        db
          .update(users)
          .set({ name: next.name, email: next.email, emailNormalized: next.emailNormalized, updatedAt: next.updatedAt })
          .where(and(eq(users.id, userId), isNull(users.deletedAt), eq(users.updatedAt, read.updatedAt))),
      ),
      eventStatement(
        db,
        { type: "user.updated", object: after, previous: previousAttributes(before, after), userId },
        "after-change",
      ),
    ]);
    return write?.meta.changes === 1;
  } catch (error) {
    // The address was taken between the look-up and the update: the name alone, with the next sync.
    if (!errorChainText(error).includes("email_normalized")) throw error;
    return false;
  }
}

/**
 * The user of a roster member (platform, user_id): created as a first launch creates it, or found
 * and refreshed (refreshMember). Says which, for the sync's counts.
 */
export async function userForMember(
  db: Database,
  wakeUps: WakeUps,
  platformId: string,
  person: Person,
): Promise<{ userId: string; change: "created" | "updated" | "unchanged" }> {
  const found = await identityUser(db, platformId, person.sub);
  if (found && found.deletedAt === null) {
    const updated = await refreshMember(db, wakeUps, found.userId, person);
    return { userId: found.userId, change: updated ? "updated" : "unchanged" };
  }
  return { userId: await userForLaunch(db, wakeUps, platformId, person), change: "created" };
}
