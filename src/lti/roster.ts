import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { WakeUps } from "../db/after-commit";
import { ltiLaunches, ltiPlatforms } from "../db/lti-schema";
import { ltiRosterMembers, ltiRosters } from "../db/roster-schema";
import { jobs } from "../db/schema";
import { statement } from "../db/statements";
import { nextLink } from "../domain/link-header";
import type { Database } from "../env";
import type { JobRow } from "../jobs/jobs";
import { config } from "../lib/config";
import { conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { type Answer, failureText, retryAfterSeconds } from "../outbound/request";
import { send } from "../queue/send";
import { type MemberRow, readPage } from "./roster-page";

/**
 * Rosters (Names and Role Provisioning Services 2.0; docs/lti.md): POST
 * /v1/lti/launches/{id}/roster-sync queues a job (the jobs queue) that reads the course's
 * membership container page by page — following Link rel="next", at most 1 000 pages of at most
 * 1 MiB — finds or creates each member's user as a launch does, and writes the members under the
 * job's own generation. When the last page is read, one batch makes that generation the course's
 * roster and deletes the one it replaces, so GET …/roster shows one whole sync, never half of one;
 * a sync that fails deletes its own rows and leaves the roster as it was. Of two syncs run
 * together each writes its own generation, and the roster is the one that finished last.
 *
 * Each page (or each delivery's share of a large page) is one batch that moves the job's cursor
 * (the next page's URL, and the offset in the page) from the value the delivery read, so a
 * delivery that runs twice writes each page once. A page the platform answers
 * with 429, 5xx or no answer is asked again later (its Retry-After, at most 10 minutes) up to
 * four times; any other failure, a page over 1 MiB, a 1 001st page, or a next link to another
 * origin fails the job with the reason.
 */

const MAX_ROSTER_PAGES = 1000;
/** Pages per delivery, and the time one may take: then the job is queued again (D1's per-invocation limits). */
const PAGES_PER_DELIVERY = 50;
/**
 * Members whose users one delivery finds or creates: each costs up to 5 D1 queries, and an
 * invocation may make 1 000. A page with more is worked through over several deliveries, each
 * reading the page again and going on from the stored offset.
 */
const MEMBERS_PER_DELIVERY = 100;
const DELIVERY_BUDGET_MS = 20_000;
/** The waits before asking a page again after a 429, 5xx or no answer (one attempt and one per wait). */
const RETRY_DELAYS_SECONDS = [1, 2, 4];
/** A Retry-After longer than this is not waited for: the job fails instead of holding a message for hours. */
const MAX_RETRY_AFTER_SECONDS = 600;
/** Members per INSERT statement: a bound JSON parameter well under D1's limits. */
const INSERT_CHUNK = 500;

interface RosterParams {
  launch_id: string;
  platform_id: string;
  context_id: string;
  url: string;
}

/** A running sync's tallies (jobs.result while running; the result once it succeeds). */
interface RosterProgress {
  created: number;
  updated: number;
  /** Failed tries of the page at the cursor. */
  attempts: number;
  /** Members of the page at the cursor already written (a page larger than one delivery's share). */
  offset?: number;
  /** Not before this instant (ms): the page's retry wait. */
  retry_at?: number;
}

/** The launch and the roster it names (platform, context), or the 404/409 that explains why there is none. */
async function rosterLaunch(db: Database, launchId: string) {
  const [launch] = await db.select().from(ltiLaunches).where(eq(ltiLaunches.id, launchId));
  if (!launch) throw notFound("Launch");
  if (launch.membershipsUrl === null)
    throw conflict(
      "lti_no_membership_service",
      `The launch ${launch.id} carried no NRPS claim (no context_memberships_url): its platform offered no roster.`,
    );
  const contextId = launch.context?.id;
  if (contextId === undefined)
    throw conflict("lti_no_membership_service", `The launch ${launch.id} names no context (course), so it has no roster.`);
  return { launch, contextId, url: launch.membershipsUrl };
}

/** The sync job of the launch's course, queued; only admin sees it (GET /v1/jobs/{id}). */
export async function startRosterSync(db: Database, wakeUps: WakeUps, launchId: string): Promise<JobRow> {
  const { launch, contextId, url } = await rosterLaunch(db, launchId);
  const now = isoNow();
  const params: RosterParams = { launch_id: launch.id, platform_id: launch.platformId, context_id: contextId, url };
  const progress: RosterProgress = { created: 0, updated: 0, attempts: 0 };
  const [row] = await db
    .insert(jobs)
    .values({
      id: newId("job"),
      type: "lti_roster",
      status: "queued",
      scope: "admin",
      // jobs.quiz_id names a job's subject: a roster sync's is its launch (params.launch_id).
      quizId: launch.id,
      params: { ...params },
      result: { ...progress },
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error("the job was not stored");
  wakeUps.add({ kind: "job", id: row.id });
  return row;
}

/** The job failed with `reason`: its rows deleted in the same batch, the roster left as it was. */
export async function failRoster(db: Database, jobId: string, reason: string): Promise<void> {
  const now = isoNow();
  await db.$client.batch([
    statement(
      db,
      sql`UPDATE jobs SET status = 'failed', error = ${reason}, finished_at = ${now}, updated_at = ${now}
          WHERE id = ${jobId} AND status IN ('queued', 'running')`,
    ),
    statement(db, sql`DELETE FROM lti_roster_members WHERE generation = ${jobId}`),
  ]);
}

/** One delivery of a roster job's message: pages from the stored cursor until the budget, then the next delivery. */
export async function runRosterJob(env: Env, db: Database, wakeUps: WakeUps, jobId: string): Promise<void> {
  const started = Date.now();
  let [job] = await db.select().from(jobs).where(eq(jobs.id, jobId));
  if (job?.type !== "lti_roster" || job.status === "succeeded" || job.status === "failed") return;
  const params = job.params as unknown as RosterParams;
  const waiting = (job.result as unknown as RosterProgress).retry_at;
  // A wake-up before the page's retry wait is over (the sweep's): the delayed message will come.
  if (waiting !== undefined && waiting > Date.now()) return;
  if (job.status === "queued") {
    await db.run(sql`UPDATE jobs SET status = 'running', updated_at = ${isoNow()} WHERE id = ${job.id} AND status = 'queued'`);
    job = { ...job, status: "running" };
  }
  const [platform] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, params.platform_id));
  if (!platform) return failRoster(db, job.id, "The platform was deleted.");
  const policy = config(env).webhooks.urlPolicy;
  let share = MEMBERS_PER_DELIVERY;
  for (let pages = 0; pages < PAGES_PER_DELIVERY && share > 0 && Date.now() - started < DELIVERY_BUDGET_MS; pages++) {
    const progress = job.result as unknown as RosterProgress;
    const url = job.cursor ?? params.url;
    const pageNumber: number = job.done + 1;
    if (pageNumber > MAX_ROSTER_PAGES)
      return failRoster(db, job.id, `The roster has more than ${MAX_ROSTER_PAGES} pages; none of it was kept.`);
    if (new URL(url).origin !== new URL(params.url).origin)
      return failRoster(db, job.id, `Page ${pageNumber}'s link leaves the origin of context_memberships_url (${url}).`);
    const page = await readPage(env, db, platform, policy, url, pageNumber);
    if (page.kind === "failed") return failRoster(db, job.id, page.reason);
    if (page.kind === "retry") return retryPage(env, db, job, progress, page.answer, page.what);
    const offset = progress.offset ?? 0;
    const members = await page.members(wakeUps, offset, share);
    share -= members.length;
    const pageDone = offset + members.length >= page.count;
    const next = nextLink(page.answer.headers?.get("link"), url);
    const counted: RosterProgress = {
      created: progress.created + members.filter((m) => m.change === "created").length,
      updated: progress.updated + members.filter((m) => m.change === "updated").length,
      attempts: 0,
      ...(pageDone ? {} : { offset: offset + members.length }),
    };
    const moved = await writePage(db, job, params, members, pageDone ? { next } : "more", offset, counted);
    if (!moved || (pageDone && next === undefined)) return; // another delivery wrote this, or the roster is whole
    job = pageDone
      ? { ...job, cursor: next ?? null, done: pageNumber, result: { ...counted } }
      : { ...job, result: { ...counted } };
  }
  wakeUps.add({ kind: "job", id: job.id });
}

/**
 * The page's batch: the job's cursor moved from the value read (compare-and-set on the page count
 * and the offset in the page, stamped), the members under the job's generation where that stamp
 * stands, and, after the last page, the swap: the generation it replaces deleted, this one made
 * current, the job succeeded with its counts. `more`: the page has members left for the next delivery.
 */
async function writePage(
  db: Database,
  job: JobRow,
  params: RosterParams,
  members: MemberRow[],
  page: { next: string | undefined } | "more",
  offset: number,
  counted: RosterProgress,
): Promise<boolean> {
  const next = page === "more" ? job.cursor : page.next;
  const last = page !== "more" && page.next === undefined;
  const stamp = crypto.randomUUID();
  const now = isoNow();
  const holds = sql`EXISTS (SELECT 1 FROM jobs WHERE id = ${job.id} AND chunk_token = ${stamp})`;
  const roster = sql`platform_id = ${params.platform_id} AND context_id = ${params.context_id}`;
  const inserts = [];
  for (let i = 0; i < members.length; i += INSERT_CHUNK) {
    const chunk = members
      .slice(i, i + INSERT_CHUNK)
      .map((m) => ({ lti_user_id: m.ltiUserId, user_id: m.userId, roles: m.roles, status: m.status }));
    inserts.push(
      statement(
        db,
        sql`INSERT INTO lti_roster_members (platform_id, context_id, generation, lti_user_id, user_id, roles, status, synced_at)
            SELECT ${params.platform_id}, ${params.context_id}, ${job.id}, json_extract(value, '$.lti_user_id'),
              json_extract(value, '$.user_id'), json_extract(value, '$.roles'), json_extract(value, '$.status'), ${now}
            FROM json_each(${JSON.stringify(chunk)}) WHERE ${holds}
            ON CONFLICT (platform_id, context_id, generation, lti_user_id)
            DO UPDATE SET user_id = excluded.user_id, roles = excluded.roles, status = excluded.status, synced_at = excluded.synced_at`,
      ),
    );
  }
  const finish = !last
    ? []
    : [
        statement(
          db,
          sql`DELETE FROM lti_roster_members WHERE ${roster} AND generation <> ${job.id}
                AND generation = (SELECT generation FROM lti_rosters WHERE ${roster}) AND ${holds}`,
        ),
        statement(
          db,
          sql`INSERT INTO lti_rosters (platform_id, context_id, generation, synced_at)
                SELECT ${params.platform_id}, ${params.context_id}, ${job.id}, ${now} WHERE ${holds}
                ON CONFLICT (platform_id, context_id) DO UPDATE SET generation = excluded.generation, synced_at = excluded.synced_at`,
        ),
        statement(
          db,
          sql`UPDATE jobs SET status = 'succeeded', total = done, finished_at = ${now}, updated_at = ${now},
                  result = json_object(
                    'members', (SELECT count(*) FROM lti_roster_members WHERE ${roster} AND generation = ${job.id}),
                    'created', ${counted.created}, 'updated', ${counted.updated},
                    'inactive', (SELECT count(*) FROM lti_roster_members WHERE ${roster} AND generation = ${job.id} AND status = 'Inactive'))
                WHERE id = ${job.id} AND chunk_token = ${stamp}`,
        ),
      ];
  const [moved] = await db.$client.batch([
    statement(
      db,
      sql`UPDATE jobs SET cursor = ${next ?? job.cursor}, chunk_token = ${stamp}, done = done + ${page === "more" ? 0 : 1},
            result = ${JSON.stringify(counted)}, updated_at = ${now}
          WHERE id = ${job.id} AND status = 'running' AND done = ${job.done}
            AND coalesce(json_extract(result, '$.offset'), 0) = ${offset}`,
    ),
    ...inserts,
    ...finish,
  ]);
  return moved?.meta.changes === 1;
}

/** A 429, 5xx or no answer: the page again after its wait, or the job failed once the tries are spent. */
async function retryPage(env: Env, db: Database, job: JobRow, progress: RosterProgress, answer: Answer, what: string) {
  const nowMs = Date.now();
  const scheduled = RETRY_DELAYS_SECONDS[progress.attempts];
  const retryAfter = retryAfterSeconds(answer, nowMs) ?? 0;
  const reason = failureText(answer, what);
  if (scheduled === undefined) return failRoster(db, job.id, `${reason} (${progress.attempts + 1} attempts; the job gave up).`);
  if (retryAfter > MAX_RETRY_AFTER_SECONDS)
    return failRoster(db, job.id, `${reason} (Retry-After ${retryAfter} s is longer than the job waits).`);
  const wait = Math.max(scheduled, retryAfter);
  const next: RosterProgress = { ...progress, attempts: progress.attempts + 1, retry_at: nowMs + wait * 1000 };
  const moved = await db.run(
    sql`UPDATE jobs SET result = ${JSON.stringify(next)}, updated_at = ${isoNow(nowMs)}
        WHERE id = ${job.id} AND status = 'running' AND done = ${job.done}
          AND json_extract(result, '$.attempts') = ${progress.attempts}`,
  );
  if (moved.meta.changes === 1) await send(env, [{ kind: "job", job_id: job.id }], { delaySeconds: wait });
}

/** Members per page of GET /v1/lti/launches/{id}/roster. */
export async function readRoster(db: Database, launchId: string, after: string | undefined, limit: number) {
  const { launch, contextId } = await rosterLaunch(db, launchId);
  const roster = and(eq(ltiRosters.platformId, launch.platformId), eq(ltiRosters.contextId, contextId));
  // One batch, one snapshot: the generation and its members as they stood together.
  const [current, rows] = await db.batch([
    db.select({ syncedAt: ltiRosters.syncedAt }).from(ltiRosters).where(roster),
    db
      .select()
      .from(ltiRosterMembers)
      .where(
        and(
          eq(ltiRosterMembers.platformId, launch.platformId),
          eq(ltiRosterMembers.contextId, contextId),
          eq(
            ltiRosterMembers.generation,
            sql`(SELECT generation FROM lti_rosters WHERE platform_id = ${launch.platformId} AND context_id = ${contextId})`,
          ),
          after === undefined ? undefined : gt(ltiRosterMembers.userId, after),
        ),
      )
      .orderBy(asc(ltiRosterMembers.userId))
      .limit(limit + 1),
  ]);
  return {
    syncedAt: current[0]?.syncedAt ?? null,
    members: rows.map((r) => ({ user_id: r.userId, lti_user_id: r.ltiUserId, roles: r.roles, status: r.status })),
  };
}
