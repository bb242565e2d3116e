import type { WakeUps } from "../db/after-commit";
import type { Database } from "../env";
import type { Config } from "../lib/config";
import { type Answer, failureText, outbound, verdictOf } from "../outbound/request";
import { emailOf, ltiUserIdOf, nameOf, rolesOf } from "./claims";
import { forgetToken, platformToken, TokenFailure } from "./platform-token";
import { userForMember } from "./users";
import type { PlatformRow } from "./verify";

/**
 * One page of a course's membership container (NRPS 2.0 §2.3): read with a bearer token for the
 * membership scope, at most 1 MiB, its members' users found or created (users.ts). A token the
 * platform no longer honours (401) is replaced once, as a score's is.
 */

const NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly";
const MEMBERSHIP_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json";
const MAX_PAGE_BYTES = 1024 * 1024;
/** Members whose users are found or created at once: each takes a few D1 queries. */
const MEMBER_CONCURRENCY = 8;

/** A member as a page's batch writes it. */
export interface MemberRow {
  ltiUserId: string;
  userId: string;
  roles: string[];
  status: "Active" | "Inactive";
  change: "created" | "updated" | "unchanged";
}

type Page =
  | {
      kind: "ok";
      answer: Answer;
      /** Members the page lists (those with a usable user_id, not Deleted). */
      count: number;
      /** The users of members [from, from + count), found or created. */
      members: (wakeUps: WakeUps, from: number, count: number) => Promise<MemberRow[]>;
    }
  | { kind: "retry"; answer: Answer; what: string }
  | { kind: "failed"; reason: string };

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

async function fetchPage(
  env: Env,
  db: Database,
  platform: PlatformRow,
  policy: Config["webhooks"]["urlPolicy"],
  url: string,
): Promise<{ answer: Answer; what: string }> {
  const get = (token: string) =>
    outbound(
      url,
      { method: "GET", headers: { authorization: `Bearer ${token}`, accept: MEMBERSHIP_TYPE } },
      policy,
      "URLs",
      MAX_PAGE_BYTES,
    );
  try {
    let answer = await get(await platformToken(env, db, platform, policy, NRPS_SCOPE));
    if (answer.status === 401) {
      await forgetToken(env, platform, NRPS_SCOPE);
      answer = await get(await platformToken(env, db, platform, policy, NRPS_SCOPE));
    }
    return { answer, what: "The memberships endpoint" };
  } catch (error) {
    if (error instanceof TokenFailure) return { answer: error.answer, what: "The token endpoint" };
    throw error;
  }
}

/** The page at `url` (the `number`th), read and parsed; its members' users made only when asked (members()). */
export async function readPage(
  env: Env,
  db: Database,
  platform: PlatformRow,
  policy: Config["webhooks"]["urlPolicy"],
  url: string,
  number: number,
): Promise<Page> {
  const { answer, what } = await fetchPage(env, db, platform, policy, url);
  const verdict = verdictOf(answer);
  if (verdict === "retryable") return { kind: "retry", answer, what };
  if (verdict === "final") return { kind: "failed", reason: `Page ${number} of the roster: ${failureText(answer, what)}` };
  if (answer.overflow)
    return { kind: "failed", reason: `Page ${number} of the roster is larger than ${MAX_PAGE_BYTES} bytes (1 MiB).` };
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return { kind: "failed", reason: `Page ${number} of the roster is not JSON.` };
  }
  const listed = record(body).members;
  if (!Array.isArray(listed))
    return { kind: "failed", reason: `Page ${number} of the roster is not a membership container (no members array).` };
  // A member without a usable user_id cannot be a user; a Deleted one (a differences list's) is no member.
  const people = listed.flatMap((entry) => {
    const member = record(entry);
    const sub = ltiUserIdOf(member.user_id);
    if (sub === undefined || member.status === "Deleted") return [];
    const status = member.status === "Inactive" ? ("Inactive" as const) : ("Active" as const);
    return [{ sub, name: nameOf(member), email: emailOf(member), roles: rolesOf(member.roles), status }];
  });
  const members = async (wakeUps: WakeUps, from: number, count: number) => {
    const share = people.slice(from, from + count);
    const rows: MemberRow[] = [];
    for (let i = 0; i < share.length; i += MEMBER_CONCURRENCY)
      rows.push(
        ...(await Promise.all(
          share.slice(i, i + MEMBER_CONCURRENCY).map(async (person) => {
            const { userId, change } = await userForMember(db, wakeUps, platform.id, person);
            return { ltiUserId: person.sub, userId, roles: person.roles, status: person.status, change };
          }),
        )),
      );
    return rows;
  };
  return { kind: "ok", answer, count: people.length, members };
}
