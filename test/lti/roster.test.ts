import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { WakeUps } from "../../src/db/after-commit";
import { runRosterJob } from "../../src/lti/roster";
import { call, expectProblem } from "../support/call";
import { db, learner, newQuiz } from "./learners";
import {
  eventually,
  launch,
  NRPS_TYPE,
  newPlatform,
  planRoster,
  type RosterMember,
  type RosterPlan,
  rosterLaunch,
  rosterLog,
  unique,
} from "./platform";

// Rosters by Names and Role Provisioning Services 2.0 (docs/lti.md): POST
// /v1/lti/launches/{id}/roster-sync runs a job on the real local jobs queue that reads the
// loopback platform's membership container page by page; GET …/roster shows what the last sync
// that succeeded read.

const LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner";
const INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor";
const UNKNOWN_LAUNCH = "ltl_01kamz3f7c9n0p8s6e5vwx2y4r";

interface Job {
  id: string;
  type: string;
  status: string;
  quiz_id: null;
  launch_id: string;
  progress: { done: number; total: number };
  result: { members: number; created: number; updated: number; inactive: number } | null;
  error: string | null;
}

interface Member {
  user_id: string;
  lti_user_id: string;
  roles: string[];
  status: "Active" | "Inactive";
}

const member = (overrides: Partial<RosterMember> = {}): RosterMember => ({
  user_id: unique("member"),
  roles: [LEARNER],
  name: `Member ${unique("n")}`,
  email: `${unique("m")}@school.example.org`,
  ...overrides,
});

async function startSync(launchId: string): Promise<string> {
  const res = await call(`/v1/lti/launches/${launchId}/roster-sync`, { method: "POST" });
  expect(res.status, res.text).toBe(202);
  expect(res.json).toMatchObject({ type: "lti_roster", status: "queued", quiz_id: null, launch_id: launchId, result: null });
  expect(res.headers.get("location")).toBe(`/v1/jobs/${res.json.id}`);
  return res.json.id;
}

/** The job once it has finished (succeeded or failed). */
async function finished(jobId: string, timeout = 60_000): Promise<Job> {
  return eventually(async () => {
    const res = await call(`/v1/jobs/${jobId}`);
    expect(res.status, res.text).toBe(200);
    expect(["succeeded", "failed"]).toContain(res.json.status);
    return res.json as Job;
  }, timeout);
}

async function sync(launchId: string, timeout?: number): Promise<Job> {
  return finished(await startSync(launchId), timeout);
}

/** Every member of the launch's roster, following next_cursor. */
async function roster(launchId: string): Promise<{ members: Member[]; synced_at: string | null }> {
  const members: Member[] = [];
  let cursor = "";
  let syncedAt: string | null = null;
  for (let page = 0; page < 100; page++) {
    const res = await call(`/v1/lti/launches/${launchId}/roster?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.status, res.text).toBe(200);
    members.push(...res.json.members);
    syncedAt = res.json.synced_at;
    if (res.json.next_cursor === null) break;
    cursor = res.json.next_cursor;
  }
  return { members, synced_at: syncedAt };
}

const byLtiId = (members: Member[]) => new Map(members.map((m) => [m.lti_user_id, m]));

/** Stored member rows of a course's roster, every generation (none but the current one should remain). */
async function storedRows(platformId: string, contextId = "course-1") {
  const { results } = await env.DB.prepare(
    "SELECT generation, lti_user_id FROM lti_roster_members WHERE platform_id = ? AND context_id = ?",
  )
    .bind(platformId, contextId)
    .all<{ generation: string; lti_user_id: string }>();
  return results;
}

async function user(id: string) {
  const res = await call(`/v1/users/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.json as { id: string; name: string; email: string | null; role: string };
}

/** A platform serving `plan`, and a launch of it carrying the NRPS claim. */
async function course(plan: RosterPlan, context?: Record<string, string>) {
  const platform = await newPlatform();
  const url = await planRoster(platform, plan);
  const launched = await rosterLaunch(
    platform,
    url,
    context ? { "https://purl.imsglobal.org/spec/lti/claim/context": context } : {},
  );
  return { platform, url, launchId: launched.launch_id, launcherId: launched.user_id };
}

describe("POST /v1/lti/launches/{launch_id}/roster-sync", { timeout: 120_000 }, () => {
  it("reads every page (Link rel=next) with a roster token and the NRPS media type; creates the members' users", async () => {
    const withAll = member({ roles: [INSTRUCTOR, LEARNER] });
    const namesOnly = member({ email: undefined, name: undefined, given_name: "Grace", family_name: "Hopper" });
    const nothing = member({ email: undefined, name: undefined });
    const inactive = member({ status: "Inactive" });
    const badEmail = member({ email: "not an address" });
    const pages = [[withAll, namesOnly], [nothing, inactive], [badEmail]];
    const { platform, launchId } = await course({ pages });
    const job = await sync(launchId);
    expect(job, job.error ?? "").toMatchObject({
      type: "lti_roster",
      status: "succeeded",
      quiz_id: null,
      launch_id: launchId,
      progress: { done: 3, total: 3 },
      result: { members: 5, created: 5, updated: 0, inactive: 1 },
      error: null,
    });

    const log = await rosterLog(platform);
    expect(log.pages.map((p) => [p.page, p.status])).toEqual([
      [1, 200],
      [2, 200],
      [3, 200],
    ]);
    expect(new Set(log.pages.map((p) => p.accept))).toEqual(new Set([NRPS_TYPE]));
    expect(log.tokens_granted).toBe(1);

    const { members, synced_at } = await roster(launchId);
    expect(synced_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(members).toHaveLength(5);
    expect([...members].sort((a, b) => a.user_id.localeCompare(b.user_id))).toEqual(members);
    const found = byLtiId(members);
    expect(found.get(withAll.user_id)).toMatchObject({ roles: [INSTRUCTOR, LEARNER], status: "Active" });
    expect(found.get(inactive.user_id)?.status).toBe("Inactive");

    expect(await user(found.get(withAll.user_id)!.user_id)).toMatchObject({
      name: withAll.name,
      email: withAll.email,
      role: "instructor",
    });
    expect(await user(found.get(namesOnly.user_id)!.user_id)).toMatchObject({
      name: "Grace Hopper",
      email: null,
      role: "student",
    });
    expect(await user(found.get(nothing.user_id)!.user_id)).toMatchObject({ name: "", email: null });
    expect((await user(found.get(badEmail.user_id)!.user_id)).email).toBeNull();
  });

  it("a member who launched before is that user: the launch and the roster agree, nobody is made twice", async () => {
    const platform = await newPlatform();
    const sub = unique("person");
    const launched = await launch(platform, platform.claims({ sub }));
    expect(launched.status, launched.text).toBe(200);
    const url = await planRoster(platform, { pages: [[member({ user_id: sub, name: "Ada Lovelace" }), member()]] });
    const { launch_id } = await rosterLaunch(platform, url);
    const job = await sync(launch_id);
    expect(job.result).toMatchObject({ members: 2, created: 1 });
    expect(byLtiId((await roster(launch_id)).members).get(sub)?.user_id).toBe(launched.json.user_id);
  });

  it("never takes over an account by e-mail: a member with another user's address gets a user of their own, without it", async () => {
    const email = `${unique("owner")}@school.example.org`;
    const owner = await call("/v1/users", { body: { name: "The Owner", email } });
    expect(owner.status, owner.text).toBe(201);
    // Someone else's identity on another platform carries the address too.
    const elsewhere = await newPlatform();
    const sub = unique("person");
    const other = await launch(elsewhere, elsewhere.claims({ sub, email: `${unique("x")}@school.example.org` }));
    expect(other.status, other.text).toBe(200);

    const claimant = member({ email: email.toUpperCase(), name: "Mallory" });
    const sameSub = member({ user_id: sub, email });
    const { launchId } = await course({ pages: [[claimant, sameSub]] });
    const job = await sync(launchId);
    expect(job.result).toMatchObject({ members: 2, created: 2, updated: 0 });
    const found = byLtiId((await roster(launchId)).members);
    for (const m of [claimant, sameSub]) {
      const made = found.get(m.user_id)!;
      expect(made.user_id).not.toBe(owner.json.id);
      expect(made.user_id).not.toBe(other.json.user_id);
      expect((await user(made.user_id)).email).toBeNull();
    }
    expect(await user(owner.json.id)).toMatchObject({ name: "The Owner", email });
  });

  it("an Inactive member keeps their user, submissions and grades", async () => {
    const platform = await newPlatform();
    const quizId = await newQuiz();
    const who = await learner(platform, quizId, platform.lineitem(unique("item")));
    const graded = await call(`/v1/submissions/${who.submissionId}/grade`, { method: "POST" });
    expect(graded.status, graded.text).toBe(200);
    const url = await planRoster(platform, { pages: [[member({ user_id: who.sub, status: "Inactive" })]] });
    const { launch_id } = await rosterLaunch(platform, url);
    const job = await sync(launch_id);
    expect(job.result).toMatchObject({ members: 1, created: 0, inactive: 1 });
    expect(byLtiId((await roster(launch_id)).members).get(who.sub)).toMatchObject({ user_id: who.userId, status: "Inactive" });
    await user(who.userId);
    const submission = await call(`/v1/submissions/${who.submissionId}`);
    expect(submission.status, submission.text).toBe(200);
    expect(submission.json.status).toBe("graded");
  });

  it("a second sync refreshes names and e-mails, adds and drops members, and replaces the roster whole", async () => {
    const stays = member();
    const renamed = member();
    const leaves = member();
    const { platform, launchId } = await course({ pages: [[stays, renamed], [leaves]] });
    const first = await sync(launchId);
    expect(first.result).toMatchObject({ members: 3, created: 3, updated: 0 });
    const before = byLtiId((await roster(launchId)).members);

    const joins = member();
    const newEmail = `${unique("new")}@school.example.org`;
    await planRoster(platform, {
      pages: [[stays, { ...renamed, name: "New Name", email: newEmail, status: "Inactive" }], [joins]],
    });
    const second = await sync(launchId);
    expect(second.result).toEqual({ members: 3, created: 1, updated: 1, inactive: 1 });
    const after = byLtiId((await roster(launchId)).members);
    expect([...after.keys()].sort()).toEqual([stays.user_id, renamed.user_id, joins.user_id].sort());
    expect(after.get(stays.user_id)?.user_id).toBe(before.get(stays.user_id)?.user_id);
    expect(after.get(renamed.user_id)).toMatchObject({ user_id: before.get(renamed.user_id)?.user_id, status: "Inactive" });
    expect(await user(after.get(renamed.user_id)!.user_id)).toMatchObject({ name: "New Name", email: newEmail });
    // The member who left keeps their user.
    await user(before.get(leaves.user_id)!.user_id);
    // Only the current generation is stored.
    const rows = await storedRows(platform.id);
    expect(new Set(rows.map((r) => r.generation))).toEqual(new Set([second.id]));
    expect(rows).toHaveLength(3);
  });

  it("a page of more members than a delivery makes users for is worked through over several, each member once", async () => {
    const big = Array.from({ length: 230 }, () => member({ email: undefined }));
    const { platform, launchId } = await course({ pages: [big, [member()]] });
    const job = await sync(launchId);
    expect(job, job.error ?? "").toMatchObject({
      status: "succeeded",
      progress: { done: 2, total: 2 },
      result: { members: 231, created: 231, updated: 0 },
    });
    // 100 members' users per delivery: the first page is read three times.
    expect((await rosterLog(platform)).pages.map((p) => p.page)).toEqual([1, 1, 1, 2]);
    const { members } = await roster(launchId);
    expect(members).toHaveLength(231);
    expect(new Set(members.map((m) => m.user_id)).size).toBe(231);
  });

  it("1 000 pages are read; a 1 001st fails the job and keeps nothing of it", { timeout: 300_000 }, async () => {
    const thousand = await course({ generate: { pages: 1000, per_page: 1 } });
    const read = await sync(thousand.launchId, 240_000);
    expect(read, read.error ?? "").toMatchObject({ status: "succeeded", progress: { done: 1000 }, result: { members: 1000 } });

    const more = await course({ generate: { pages: 1001, per_page: 1 } });
    const job = await sync(more.launchId, 240_000);
    expect(job.status).toBe("failed");
    expect(job.error).toContain("more than 1000 pages");
    expect((await rosterLog(more.platform)).pages).toHaveLength(1000);
    expect(await roster(more.launchId)).toEqual({ members: [], synced_at: null });
    expect(await storedRows(more.platform.id)).toEqual([]);
  });

  it("a page over 1 MiB fails the job; the roster stays the one before, whole", async () => {
    const pages = [[member(), member()], [member()]];
    const { platform, launchId } = await course({ pages });
    const first = await sync(launchId);
    expect(first.status).toBe("succeeded");
    const before = await roster(launchId);

    await planRoster(platform, { pages: [[member(), member()], [member()]], oversize_page: 2 });
    const job = await sync(launchId);
    expect(job.status).toBe("failed");
    expect(job.error).toBe("Page 2 of the roster is larger than 1048576 bytes (1 MiB).");
    expect(job.result).toBeNull();
    expect(await roster(launchId)).toEqual(before);
    expect(new Set((await storedRows(platform.id)).map((r) => r.generation))).toEqual(new Set([first.id]));
  });

  it("the token endpoint refusing the roster scope fails the job at once, saying so; no page is asked", async () => {
    const { platform, launchId } = await course({ pages: [[member()]], refuse_token: true });
    const job = await sync(launchId);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/^Page 1 of the roster: The token endpoint answered HTTP 400: .*roster scope not granted/);
    expect((await rosterLog(platform)).pages).toEqual([]);
    expect((await platform.log()).tokens.at(-1)).toMatchObject({ ok: false, error: "roster scope not granted" });
  });

  it("a 503 or 429 is asked again after its wait; a 503 that lasts fails the job after 4 attempts", async () => {
    const flaky = await course({ pages: [[member()], [member()]], fail: { page: 2, status: 503, times: 2 } });
    const recovered = await sync(flaky.launchId);
    expect(recovered, recovered.error ?? "").toMatchObject({ status: "succeeded", result: { members: 2 } });
    expect((await rosterLog(flaky.platform)).pages.map((p) => p.status)).toEqual([200, 503, 503, 200]);

    const limited = await course({ pages: [[member()]], fail: { page: 1, status: 429, times: 1, retry_after: 2 } });
    const started = Date.now();
    const waited = await sync(limited.launchId);
    expect(waited.status).toBe("succeeded");
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);

    const down = await course({ pages: [[member()], [member()]], fail: { page: 2, status: 503 } });
    const failed = await sync(down.launchId);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/^The memberships endpoint answered HTTP 503: .*\(4 attempts; the job gave up\)\.$/);
    expect(await roster(down.launchId)).toEqual({ members: [], synced_at: null });
    expect(await storedRows(down.platform.id)).toEqual([]);
  });

  it("a next link to another origin fails the job before anything is sent there", async () => {
    const { platform, launchId } = await course({ pages: [[member()], [member()]], foreign_next: 1 });
    const job = await sync(launchId);
    expect(job.status).toBe("failed");
    expect(job.error).toContain("leaves the origin of context_memberships_url");
    expect((await rosterLog(platform)).pages).toHaveLength(1);
  });

  it("a platform answering 404 for the roster fails the job with its status", async () => {
    const { platform, launchId } = await course({ pages: [] });
    const job = await sync(launchId);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/^Page 1 of the roster: The memberships endpoint answered HTTP 404/);
    expect((await rosterLog(platform)).pages).toEqual([{ page: 1, status: 404, accept: NRPS_TYPE }]);
  });

  it("two syncs started together leave one whole roster, whichever finishes last (many trials)", async () => {
    let overlapped = 0;
    for (let trial = 0; trial < 8; trial++) {
      const pages = [[member(), member()], [member(), member()], [member()]];
      const { platform, launchId } = await course({ pages, delay_ms: trial % 4 === 0 ? 0 : 20 * trial });
      const [a, b] = await Promise.all([startSync(launchId), startSync(launchId)]);
      // The local broker runs one job message at a time: the two jobs' deliveries are also run here,
      // at once (as consumers on several isolates would), beside the queue's own.
      await Promise.all([a, b, a, b].map((id) => runRosterJob(env, db, new WakeUps(), id)));
      const jobs = await Promise.all([finished(a), finished(b)]);
      for (const job of jobs) expect(job, job.error ?? "").toMatchObject({ status: "succeeded", result: { members: 5 } });
      // Five users, each made once, whichever sync made them.
      expect(jobs[0]!.result!.created + jobs[1]!.result!.created).toBeGreaterThanOrEqual(5);
      const { members } = await roster(launchId);
      expect(members.map((m) => m.lti_user_id).sort()).toEqual(
        pages
          .flat()
          .map((m) => m.user_id)
          .sort(),
      );
      expect(new Set(members.map((m) => m.user_id)).size).toBe(5);
      const rows = await storedRows(platform.id);
      expect(rows).toHaveLength(5);
      expect(new Set(rows.map((r) => r.generation)).size).toBe(1);
      expect([a, b]).toContain(rows[0]!.generation);
      // The two ran at once when the second asked its first page before the first asked its last.
      const asked = (await rosterLog(platform)).pages.map((p) => p.page);
      if (asked.indexOf(1, 1) < asked.indexOf(3)) overlapped++;
    }
    expect(overlapped, "no trial ran the two syncs at once").toBeGreaterThan(0);
  });

  it("a launch without the NRPS claim → 409 lti_no_membership_service; an unknown launch → 404", async () => {
    const platform = await newPlatform();
    const plain = await launch(platform, platform.claims());
    expect(plain.status, plain.text).toBe(200);
    expect(plain.json.nrps).toBeNull();
    const res = await call(`/v1/lti/launches/${plain.json.launch_id}/roster-sync`, { method: "POST" });
    expect(expectProblem(res, 409, "lti_no_membership_service").detail).toContain("carried no NRPS claim");
    expectProblem(await call(`/v1/lti/launches/${UNKNOWN_LAUNCH}/roster-sync`, { method: "POST" }), 404, "not_found");
    expectProblem(await call("/v1/lti/launches/not-a-launch/roster-sync", { method: "POST" }), 404, "not_found");
  });

  it("a launch with the NRPS claim but no context → 409; the launch shows its claim", async () => {
    const platform = await newPlatform();
    const url = await planRoster(platform, { pages: [[member()]] });
    const launched = await rosterLaunch(platform, url, { "https://purl.imsglobal.org/spec/lti/claim/context": undefined });
    const shown = await launch(
      platform,
      platform.claims({
        "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": { context_memberships_url: url },
      }),
    );
    expect(shown.json.nrps).toEqual({ context_memberships_url: url });
    const res = await call(`/v1/lti/launches/${launched.launch_id}/roster-sync`, { method: "POST" });
    expect(expectProblem(res, 409, "lti_no_membership_service").detail).toContain("names no context");
  });
});

describe("GET /v1/lti/launches/{launch_id}/roster", { timeout: 60_000 }, () => {
  let synced: { launchId: string; members: RosterMember[] };
  beforeAll(async () => {
    const members = Array.from({ length: 7 }, () => member());
    const { launchId } = await course({ pages: [members.slice(0, 4), members.slice(4)] });
    expect((await sync(launchId)).status).toBe("succeeded");
    synced = { launchId, members };
  });

  it("pages by user id with next_cursor and Link rel=next", async () => {
    const first = await call(`/v1/lti/launches/${synced.launchId}/roster?limit=3`);
    expect(first.status, first.text).toBe(200);
    expect(first.json.members).toHaveLength(3);
    expect(first.json.next_cursor).toEqual(expect.any(String));
    expect(first.headers.get("link")).toContain('rel="next"');
    const all = await roster(synced.launchId);
    expect(all.members.map((m) => m.lti_user_id).sort()).toEqual(synced.members.map((m) => m.user_id).sort());
    expect(all.members.slice(0, 3)).toEqual(first.json.members);
  });

  it("before any sync: no members, synced_at null", async () => {
    const { launchId } = await course({ pages: [[member()]] }, { id: unique("course") });
    expect(await call(`/v1/lti/launches/${launchId}/roster`)).toMatchObject({
      status: 200,
      json: { members: [], synced_at: null, next_cursor: null },
    });
  });

  it("a bad cursor or limit → 400; a launch without the claim → 409; an unknown launch → 404", async () => {
    expectProblem(await call(`/v1/lti/launches/${synced.launchId}/roster?cursor=nope`), 400, "validation_failed");
    expectProblem(await call(`/v1/lti/launches/${synced.launchId}/roster?limit=0`), 400, "validation_failed");
    const platform = await newPlatform();
    const plain = await launch(platform, platform.claims());
    expectProblem(await call(`/v1/lti/launches/${plain.json.launch_id}/roster`), 409, "lti_no_membership_service");
    expectProblem(await call(`/v1/lti/launches/${UNKNOWN_LAUNCH}/roster`), 404, "not_found");
  });
});
