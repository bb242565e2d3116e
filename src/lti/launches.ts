import { and, eq, type SQL, sql } from "drizzle-orm";
import type { WakeUps } from "../db/after-commit";
import { ltiLaunches, ltiLinks } from "../db/lti-schema";
import { quizzes } from "../db/schema";
import type { Database } from "../env";
import { sha256Hex } from "../lib/crypto";
import { isId, newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { userForLaunch } from "./users";
import { IAT_WINDOW_SECONDS, refused, type VerifiedLaunch, verifyIdToken } from "./verify";

/**
 * POST /v1/lti/launches: a verified id_token becomes a launch — its nonce used up, its person a
 * user, its resource link a quiz — stored with its AGS claim so that submissions made under it
 * send their grades back.
 */

type LaunchRow = typeof ltiLaunches.$inferSelect;

/** How long after a token's last acceptable instant its nonce is still kept: room for clocks that disagree. */
const NONCE_MARGIN_SECONDS = 5 * 60;

/**
 * The statement that uses the nonce up: an insert under the primary key (platform, SHA-256 of the
 * nonce), so of two launches with one token exactly one lands (it returns a row; a replay returns
 * none). `onlyIf` makes it conditional (the tool's launch: only under the state it claimed). Kept
 * until the token could no longer pass the exp and iat checks, and 5 minutes more; the cron
 * deletes it then.
 */
export async function nonceInsert(launch: VerifiedLaunch, onlyIf: SQL = sql`1`): Promise<SQL> {
  const { claims, platform } = launch;
  const lastAcceptable = Math.min(claims.exp, claims.iat + IAT_WINDOW_SECONDS);
  return sql`INSERT INTO lti_nonces (platform_id, nonce_hash, expires_at)
      SELECT ${platform.id}, ${await sha256Hex(claims.nonce)}, ${isoNow((lastAcceptable + NONCE_MARGIN_SECONDS) * 1000)}
      WHERE ${onlyIf}
      ON CONFLICT DO NOTHING RETURNING 1`;
}

async function claimNonce(db: Database, launch: VerifiedLaunch): Promise<void> {
  const rows = await db.all(await nonceInsert(launch));
  if (rows.length === 0) throw refused("replayed_nonce", "this nonce was used by an earlier launch.");
}

/** The quiz the launch opens: `custom.quiz_id` when it names a quiz, else the resource link's link, else null. */
async function quizFor(db: Database, launch: VerifiedLaunch): Promise<string | null> {
  const custom = launch.claims.customQuizId;
  const [byCustom, byLink] = await db.batch([
    db
      .select({ id: quizzes.id })
      .from(quizzes)
      .where(eq(quizzes.id, custom !== undefined && isId("quiz", custom) ? custom : "")),
    db
      .select({ quizId: ltiLinks.quizId })
      .from(ltiLinks)
      .where(and(eq(ltiLinks.platformId, launch.platform.id), eq(ltiLinks.resourceLinkId, launch.resourceLink.id ?? ""))),
  ]);
  return byCustom[0]?.id ?? byLink[0]?.quizId ?? null;
}

function serializeLaunch(row: LaunchRow) {
  return {
    launch_id: row.id,
    platform_id: row.platformId,
    user_id: row.userId,
    deployment_id: row.deploymentId,
    roles: row.roles,
    context: row.context,
    resource_link: row.resourceLink,
    quiz_id: row.quizId,
    ags: row.agsScopes === null ? null : { lineitem: row.lineitem, scopes: row.agsScopes },
    nrps: row.membershipsUrl === null ? null : { context_memberships_url: row.membershipsUrl },
    created_at: row.createdAt,
  };
}

/** The launch's user (found or made) and quiz, and the launch row that records them. */
export async function recordLaunch(db: Database, wakeUps: WakeUps, launch: VerifiedLaunch): Promise<LaunchRow> {
  const { claims, platform } = launch;
  const [userId, quizId] = await Promise.all([userForLaunch(db, wakeUps, platform.id, claims), quizFor(db, launch)]);
  const row: LaunchRow = {
    id: newId("ltiLaunch"),
    platformId: platform.id,
    userId,
    sub: claims.sub,
    deploymentId: claims.deploymentId,
    quizId,
    roles: claims.roles,
    context: claims.context,
    resourceLink: launch.resourceLink,
    lineitem: claims.ags?.lineitem ?? null,
    agsScopes: claims.ags?.scopes ?? null,
    membershipsUrl: claims.membershipsUrl,
    createdAt: isoNow(),
  };
  await db.insert(ltiLaunches).values(row);
  return row;
}

export async function acceptLaunch(env: Env, db: Database, wakeUps: WakeUps, idToken: string) {
  const launch = await verifyIdToken(env, db, idToken);
  await claimNonce(db, launch);
  return serializeLaunch(await recordLaunch(db, wakeUps, launch));
}

/** A launch, for tying a submission to it; undefined when there is none. */
export async function findLaunch(db: Database, id: string): Promise<LaunchRow | undefined> {
  return (await db.select().from(ltiLaunches).where(eq(ltiLaunches.id, id)))[0];
}
