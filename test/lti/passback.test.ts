import { beforeAll, describe, expect, it } from "vitest";
import { call, expectProblem } from "../support/call";
import { keptGrade, learner, ledger, newQuiz } from "./learners";
import { eventually, newPlatform, type ScoreRecord, type TestPlatform, unique } from "./platform";

// Grades back to the platform (docs/lti.md): each kept-grade change recorded as the grading batch
// records it reaches the loopback platform through the real local queue, with a token obtained by
// a signed client assertion; failures are retried or fail as the contract says.

let quizId: string;

beforeAll(async () => {
  quizId = await newQuiz();
});

const scoresOf = async (platform: TestPlatform, sub: string): Promise<ScoreRecord[]> =>
  (await platform.log()).scores.filter((s) => s.body.userId === sub);

async function settled(userId: string, status: "succeeded" | "failed" = "succeeded") {
  return eventually(async () => {
    const [row] = await ledger(`&user_id=${userId}`);
    expect(row?.status).toBe(status);
    return row!;
  });
}

describe("a kept grade's way to the gradebook", { timeout: 60_000 }, () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await newPlatform();
  });

  it("reaches the platform once, with the score, progress and timestamp of the change, at {lineitem}/scores", async () => {
    const item = unique("item");
    const who = await learner(platform, quizId, platform.lineitem(item, "?type_id=7"));
    const at = "2026-11-22T08:00:00.123Z";
    await keptGrade(quizId, who, { earned: 7.5, possible: 10 }, { at });
    const row = await settled(who.userId);
    expect(row).toMatchObject({
      id: expect.stringMatching(/^lpb_[0-9a-z]{26}$/),
      quiz_id: quizId,
      submission_id: who.submissionId,
      lineitem: platform.lineitem(item, "?type_id=7"),
      score_given: 7.5,
      score_maximum: 10,
      grading_progress: "FullyGraded",
      timestamp: at,
      attempts: 1,
      last_response_status: 200,
      last_error: null,
      next_retry_at: null,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const scores = await scoresOf(platform, who.sub);
    expect(scores).toHaveLength(1);
    expect(scores[0]?.lineitem).toBe(item);
    expect(scores[0]?.query).toBe("?type_id=7");
    expect(scores[0]?.body).toEqual({
      userId: who.sub,
      scoreGiven: 7.5,
      scoreMaximum: 10,
      activityProgress: "Completed",
      gradingProgress: "FullyGraded",
      timestamp: at,
    });
  });

  it("reuses the platform's token: one token request for many scores", async () => {
    const before = (await platform.log()).tokens.filter((t) => t.ok).length;
    const learners = await Promise.all([1, 2, 3].map(() => learner(platform, quizId, platform.lineitem(unique("item")))));
    for (const who of learners) await keptGrade(quizId, who, { earned: 1, possible: 1 });
    for (const who of learners) await settled(who.userId);
    const tokens = (await platform.log()).tokens;
    expect(tokens.filter((t) => !t.ok)).toEqual([]);
    expect(tokens.filter((t) => t.ok).length).toBeLessThanOrEqual(Math.max(before, 1));
  });

  it("PendingManual while it needs review (no score given), then FullyGraded", async () => {
    const who = await learner(platform, quizId, platform.lineitem(unique("item")));
    await keptGrade(quizId, who, { earned: 3, possible: 10 }, { needsReview: true, at: "2026-11-22T08:00:00.000Z" });
    const pending = await settled(who.userId);
    expect(pending).toMatchObject({ grading_progress: "PendingManual", score_given: null, score_maximum: null });
    await keptGrade(quizId, who, { earned: 8, possible: 10 }, { at: "2026-11-22T09:00:00.000Z" });
    await eventually(async () => expect(await scoresOf(platform, who.sub)).toHaveLength(2));
    const [first, second] = (await scoresOf(platform, who.sub)).map((s) => s.body);
    expect(first).toEqual({
      userId: who.sub,
      activityProgress: "Completed",
      gradingProgress: "PendingManual",
      timestamp: "2026-11-22T08:00:00.000Z",
    });
    expect(second).toMatchObject({
      gradingProgress: "FullyGraded",
      scoreGiven: 8,
      scoreMaximum: 10,
      timestamp: "2026-11-22T09:00:00.000Z",
    });
    expect((await settled(who.userId)).grading_progress).toBe("FullyGraded");
  });

  it("an older kept grade recorded after a newer one changes nothing and is never sent", async () => {
    const who = await learner(platform, quizId, platform.lineitem(unique("item")));
    await keptGrade(quizId, who, { earned: 9, possible: 10 }, { at: "2026-11-22T10:00:00.000Z" });
    await keptGrade(quizId, who, { earned: 2, possible: 10 }, { at: "2026-11-22T09:59:59.999Z" });
    const row = await settled(who.userId);
    expect(row).toMatchObject({ score_given: 9, timestamp: "2026-11-22T10:00:00.000Z" });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await scoresOf(platform, who.sub)).map((s) => s.body.scoreGiven)).toEqual([9]);
  });

  it("a newer grade recorded while the older one is in flight is sent after it, never before", async () => {
    const slow = await newPlatform();
    await slow.plan({ delay_ms: 1500 });
    const who = await learner(slow, quizId, slow.lineitem(unique("item")));
    await keptGrade(quizId, who, { earned: 4, possible: 10 }, { at: "2026-11-22T08:00:00.000Z" });
    await eventually(async () => expect(await scoresOf(slow, who.sub)).toHaveLength(1));
    await keptGrade(quizId, who, { earned: 6, possible: 10 }, { at: "2026-11-22T08:05:00.000Z" });
    await eventually(async () => expect(await scoresOf(slow, who.sub)).toHaveLength(2));
    const scores = await scoresOf(slow, who.sub);
    expect(scores.map((s) => s.body.scoreGiven)).toEqual([4, 6]);
    expect(scores[1]!.at).toBeGreaterThanOrEqual(scores[0]!.answered_at);
    expect(await settled(who.userId)).toMatchObject({ score_given: 6, timestamp: "2026-11-22T08:05:00.000Z" });
  });
});

describe("failures", { timeout: 60_000 }, () => {
  it("a 400 fails at once with lti.passback.failed; a retry succeeds once the platform recovers", async () => {
    const platform = await newPlatform();
    await platform.plan({ status: 400 });
    const who = await learner(platform, quizId, platform.lineitem(unique("item")));
    await keptGrade(quizId, who, { earned: 5, possible: 10 });
    const failed = await settled(who.userId, "failed");
    expect(failed).toMatchObject({ attempts: 1, last_response_status: 400, next_retry_at: null });
    expect(failed.last_error).toContain("HTTP 400");
    const events = await call("/v1/events?type=lti.passback.failed&limit=100");
    expect(events.json.events.find((e) => e.data.object.id === failed.id)?.data.object).toMatchObject({
      id: failed.id,
      status: "failed",
      last_response_status: 400,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await scoresOf(platform, who.sub)).toHaveLength(1);

    await platform.plan({});
    const retried = await call(`/v1/lti/passbacks/${failed.id}/retry`, { method: "POST" });
    expect(retried.status, retried.text).toBe(202);
    expect(retried.json).toMatchObject({ id: failed.id, status: "pending", attempts: 0 });
    expect(await settled(who.userId)).toMatchObject({ attempts: 1, last_response_status: 200, last_error: null });
    expect(await scoresOf(platform, who.sub)).toHaveLength(2);
  });

  it("429 and 5xx are retried, the 429 never sooner than its Retry-After", async () => {
    const platform = await newPlatform();
    // Longer than the retry delay (1 s) plus the queue's batch wait (1 s): only honouring it explains the gap.
    await platform.plan({ status: 429, retry_after: 4, first_per_user: 1 });
    const limited = await learner(platform, quizId, platform.lineitem(unique("item")));
    await keptGrade(quizId, limited, { earned: 1, possible: 2 });
    expect(await settled(limited.userId)).toMatchObject({ attempts: 2, last_response_status: 200 });
    const [refused, sent] = await scoresOf(platform, limited.sub);
    expect(refused?.status).toBe(429);
    expect(sent!.at - refused!.answered_at).toBeGreaterThanOrEqual(4000);

    await platform.plan({ status: 503, first_per_user: 2 });
    const unavailable = await learner(platform, quizId, platform.lineitem(unique("item")));
    await keptGrade(quizId, unavailable, { earned: 2, possible: 2 });
    expect(await settled(unavailable.userId)).toMatchObject({ attempts: 3, last_response_status: 200 });
    expect((await scoresOf(platform, unavailable.sub)).map((s) => s.status)).toEqual([503, 503, 200]);
  });

  it("8 failed attempts end the row failed, with its event", async () => {
    const platform = await newPlatform();
    await platform.plan({ status: 500 });
    const who = await learner(platform, quizId, platform.lineitem(unique("item")));
    await keptGrade(quizId, who, { earned: 1, possible: 1 });
    const failed = await eventually(() => settled(who.userId, "failed"), 60_000);
    expect(failed).toMatchObject({ attempts: 8, last_response_status: 500, next_retry_at: null });
    expect(await scoresOf(platform, who.sub)).toHaveLength(8);
  }, 90_000);

  it("POST /v1/lti/passbacks/{id}/retry: an unknown or malformed id → 404", async () => {
    expectProblem(await call("/v1/lti/passbacks/lpb_01kamz3f7c9n0p8s6e5vwx2y4r/retry", { method: "POST" }), 404, "not_found");
    expectProblem(await call("/v1/lti/passbacks/nope/retry", { method: "POST" }), 404, "not_found");
  });
});
