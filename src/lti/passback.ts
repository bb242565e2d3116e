import { eq, sql } from "drizzle-orm";
import { commit, type WakeUps } from "../db/after-commit";
import { ltiPassbacks, ltiPlatforms } from "../db/lti-schema";
import { eventStatement } from "../db/outbox";
import { statement } from "../db/statements";
import type { Database } from "../env";
import { config } from "../lib/config";
import { logger } from "../lib/log";
import { isoNow } from "../lib/time";
import { type Answer, failureText, outbound, retryAfterSeconds, verdictOf } from "../outbound/request";
import type { MessageOf } from "../queue/messages";
import { type PassbackRow, scoreOf, scoresUrl, serializePassback } from "./ledger-rows";
import { forgetToken, platformToken, TokenFailure } from "./platform-token";
import type { PlatformRow } from "./verify";
import { wakePassbacks } from "./wake-passbacks";

/**
 * One wake-up of one ledger row: claim it, send its current score, record the outcome.
 *
 * The claim is one UPDATE that takes a lease on the row only while it is pending, due, not leased
 * already, and while its platform has fewer than 10 rows under a live lease: D1 runs statements
 * one at a time, so however many consumer invocations race, a row is sent by one at a time and a
 * platform never has more than 10 requests from us in flight (each lease covers one request at a
 * time: the token's, then the score's). The outcome is recorded only under the same lease, and
 * `succeeded`/`failed` only for the version that was sent (compare-and-set): a kept grade that
 * changed meanwhile leaves the row pending, and it is sent next. As every send reads the row's
 * current state under the lease, an older score is never sent after a newer one.
 */

/** Longer than a send can take: two token requests and two score POSTs of 10 s each. */
const LEASE_MS = 60_000;
const MAX_IN_FLIGHT_PER_PLATFORM = 10;
/** When the platform has 10 requests in flight: look again this much later. */
const BUSY_WAIT_SECONDS = 1;
const SCORE_MEDIA_TYPE = "application/vnd.ims.lis.v1.score+json";

async function claim(db: Database, id: string, token: string, nowMs: number) {
  const now = isoNow(nowMs);
  const [claimed, platforms] = await db.batch([
    db
      .update(ltiPassbacks)
      .set({ leaseToken: token, leaseUntil: isoNow(nowMs + LEASE_MS), attempts: sql`attempts + 1`, updatedAt: now })
      .where(
        sql`id = ${id} AND status = 'pending'
          AND (next_retry_at IS NULL OR next_retry_at <= ${now})
          AND (lease_until IS NULL OR lease_until <= ${now})
          AND (SELECT count(*) FROM lti_passbacks AS p WHERE p.platform_id = lti_passbacks.platform_id AND p.lease_until > ${now})
            < ${MAX_IN_FLIGHT_PER_PLATFORM}`,
      )
      .returning(),
    db
      .select()
      .from(ltiPlatforms)
      .where(eq(ltiPlatforms.id, sql`(SELECT platform_id FROM lti_passbacks WHERE id = ${id})`)),
  ]);
  return { row: claimed[0], platform: platforms[0] };
}

async function send(env: Env, db: Database, row: PassbackRow, platform: PlatformRow): Promise<{ answer: Answer; what: string }> {
  const policy = config(env).webhooks.urlPolicy;
  const url = scoresUrl(row.lineitem);
  if (url === undefined)
    return {
      answer: { status: null, body: "", headers: null, error: "The line item is not a URL.", refused: true, durationMs: 0 },
      what: "The line item",
    };
  const post = (token: string) =>
    outbound(
      url,
      {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": SCORE_MEDIA_TYPE, accept: "application/json" },
        body: JSON.stringify(scoreOf(row)),
      },
      policy,
    );
  try {
    let answer = await post(await platformToken(env, db, platform, policy));
    // A token the platform no longer honours (revoked, or its clock is ahead): one fresh token, once.
    if (answer.status === 401) {
      await forgetToken(env, platform);
      answer = await post(await platformToken(env, db, platform, policy));
    }
    return { answer, what: "The scores endpoint" };
  } catch (error) {
    if (error instanceof TokenFailure) return { answer: error.answer, what: "The token endpoint" };
    throw error;
  }
}

export async function processPassback(
  env: Env,
  db: Database,
  wakeUps: WakeUps,
  message: MessageOf<"lti_passback">,
): Promise<void> {
  const id = message.passback_id;
  const lease = crypto.randomUUID();
  const nowMs = Date.now();
  const { row, platform } = await claim(db, id, lease, nowMs);
  if (!row) return notClaimed(env, db, id, nowMs);
  let outcome: { answer: Answer; what: string };
  if (!platform) {
    outcome = {
      answer: { status: null, body: "", headers: null, error: "The platform was deleted.", refused: true, durationMs: 0 },
      what: "The platform",
    };
  } else {
    try {
      outcome = await send(env, db, row, platform);
    } catch (error) {
      // Ours, not the platform's (D1, KV, the sealing key): a failed attempt like a network failure.
      logger(env).error("passback send failed", { passback: id, error: String(error) });
      outcome = {
        answer: { status: null, body: "", headers: null, error: "The service failed before an answer.", durationMs: 0 },
        what: "The send",
      };
    }
  }
  await record(env, db, wakeUps, row, lease, outcome);
}

/**
 * Why a wake-up claimed nothing: the row is done (or gone), being sent (that send wakes it again
 * if its kept grade changed), waiting for a retry already queued, or its platform has 10
 * requests in flight (look again in a second).
 */
async function notClaimed(env: Env, db: Database, id: string, nowMs: number): Promise<void> {
  const [row] = await db
    .select({ status: ltiPassbacks.status, nextRetryAt: ltiPassbacks.nextRetryAt, leaseUntil: ltiPassbacks.leaseUntil })
    .from(ltiPassbacks)
    .where(eq(ltiPassbacks.id, id));
  const now = isoNow(nowMs);
  if (row?.status !== "pending") return;
  if (row.leaseUntil !== null && row.leaseUntil > now) return;
  if (row.nextRetryAt !== null && row.nextRetryAt > now) return;
  await wakePassbacks(env, [id], BUSY_WAIT_SECONDS);
}

/** The outcome, under the lease; what follows it queued (a retry, or the newer score). */
async function record(
  env: Env,
  db: Database,
  wakeUps: WakeUps,
  row: PassbackRow,
  lease: string,
  outcome: { answer: Answer; what: string },
) {
  const { answer } = outcome;
  const nowMs = Date.now();
  const now = isoNow(nowMs);
  const verdict = verdictOf(answer);
  const held = sql`id = ${row.id} AND lease_token = ${lease}`;
  const released = sql`lease_token = NULL, lease_until = NULL, updated_at = ${now}, last_response_status = ${answer.status}`;
  if (verdict === "ok") {
    const [done] = await db.all<{ status: string }>(sql`
      UPDATE lti_passbacks SET status = CASE WHEN version = ${row.version} THEN 'succeeded' ELSE 'pending' END,
        last_error = NULL, next_retry_at = NULL, ${released}
      WHERE ${held} RETURNING status`);
    if (done?.status === "pending") await wakePassbacks(env, [row.id]);
    return;
  }
  const error = failureText(answer, outcome.what);
  const delays = config(env).lti.passbackRetryDelaysSeconds;
  const scheduled = delays[row.attempts - 1];
  const retries = verdict === "retryable" && scheduled !== undefined;
  // Never sooner than the platform's Retry-After.
  const waitSeconds = retries ? Math.max(scheduled, retryAfterSeconds(answer, nowMs) ?? 0) : 0;
  const retryAt = retries ? isoNow(nowMs + waitSeconds * 1000) : null;
  if (retries) {
    const [kept] = await db.all(sql`
      UPDATE lti_passbacks SET last_error = ${error}, next_retry_at = ${retryAt}, ${released} WHERE ${held} RETURNING id`);
    if (kept) await wakePassbacks(env, [row.id], waitSeconds);
    return;
  }
  // The last attempt failed, or a 4xx that trying again will not change: failed, with its event,
  // if this was the row's current score; a newer one is tried afresh.
  const failed: PassbackRow = {
    ...row,
    status: "failed",
    lastResponseStatus: answer.status,
    lastError: error,
    nextRetryAt: null,
    updatedAt: now,
  };
  // A newer score still waits out the platform's Retry-After.
  const holdSeconds = verdict === "retryable" ? (retryAfterSeconds(answer, nowMs) ?? 0) : 0;
  const holdUntil = holdSeconds > 0 ? isoNow(nowMs + holdSeconds * 1000) : null;
  const [, , afresh] = await commit<{ id: string }>(db, wakeUps, [
    statement(
      db,
      sql`UPDATE lti_passbacks SET status = 'failed', last_error = ${error}, next_retry_at = NULL, ${released}
          WHERE ${held} AND version = ${row.version}`,
    ),
    eventStatement(db, { type: "lti.passback.failed", object: serializePassback(failed), userId: row.userId }, "after-change"),
    statement(
      db,
      sql`UPDATE lti_passbacks SET last_error = ${error}, next_retry_at = ${holdUntil}, ${released} WHERE ${held} RETURNING id`,
    ),
  ]);
  if ((afresh?.results ?? []).length > 0) await wakePassbacks(env, [row.id], holdSeconds);
}
