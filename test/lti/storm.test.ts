import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { WakeUps } from "../../src/db/after-commit";
import { processPassback } from "../../src/lti/passback";
import { db, keptGrade, type Learner, learner, ledger, newQuiz } from "./learners";
import { eventually, newPlatform, type ScoreRecord, type TestPlatform, unique } from "./platform";

// Storms (docs/lti.md): after any storm of failures the gradebook holds each user's latest kept
// grade, no older score arrives after a newer one, a 429 is waited out, and a platform never has
// more than 10 of our requests in flight, however many consumers run at once.

async function learners(platform: TestPlatform, quizId: string, count: number): Promise<Learner[]> {
  const made: Learner[] = [];
  for (let i = 0; i < count; i += 10)
    made.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(10, count - i) }, () => learner(platform, quizId, platform.lineitem(unique("item")))),
      )),
    );
  return made;
}

function bySub(scores: ScoreRecord[]): Map<string, ScoreRecord[]> {
  const map = new Map<string, ScoreRecord[]>();
  for (const score of [...scores].sort((a, b) => a.at - b.at))
    map.set(score.body.userId, [...(map.get(score.body.userId) ?? []), score]);
  return map;
}

describe("a storm of 429s", () => {
  it("200 kept-grade changes, each user's first score answered 429 Retry-After: 1 → every latest grade arrives, in order, ≤ 10 in flight", async () => {
    const platform = await newPlatform();
    await platform.plan({ status: 429, retry_after: 1, first_per_user: 1, delay_ms: 40 });
    const quizId = await newQuiz();
    const people = await learners(platform, quizId, 100);
    const base = Date.parse("2026-11-22T08:00:00.000Z");
    // Two changes per user, the second later, recorded in a shuffled order of users.
    const changes = people.flatMap((who, i) => [
      { who, earned: 1, at: new Date(base + i * 1000).toISOString() },
      { who, earned: 2, at: new Date(base + i * 1000 + 500).toISOString() },
    ]);
    for (let i = 0; i < changes.length; i += 20)
      await Promise.all(
        changes.slice(i, i + 20).map((c) => keptGrade(quizId, c.who, { earned: c.earned, possible: 2 }, { at: c.at })),
      );

    await eventually(async () => expect((await ledger(`&quiz_id=${quizId}&status=succeeded`)).length).toBe(100), 120_000);
    const log = await platform.log();
    expect(log.max_in_flight).toBeLessThanOrEqual(10);
    expect(log.max_in_flight).toBeGreaterThan(1);
    const received = bySub(log.scores);
    for (const [i, who] of people.entries()) {
      const scores = received.get(who.sub) ?? [];
      const accepted = scores.filter((s) => s.status === 200);
      // The gradebook's last word is the latest kept grade.
      expect(accepted.at(-1)?.body, who.sub).toMatchObject({
        scoreGiven: 2,
        timestamp: new Date(base + i * 1000 + 500).toISOString(),
      });
      // No older score after a newer one.
      const stamps = scores.map((s) => s.body.timestamp);
      expect([...stamps].sort(), who.sub).toEqual(stamps);
      // Each 429 waited out: the user's next score came at least its Retry-After later.
      for (const [k, s] of scores.entries()) {
        const next = scores[k + 1];
        if (s.status === 429 && next) expect(next.at - s.answered_at, who.sub).toBeGreaterThanOrEqual(1000);
      }
    }
  }, 180_000);
});

describe("many consumers at once", () => {
  it("30 rows sent by 30 concurrent invocations: the platform sees at most 10 at a time, and every score arrives once", async () => {
    const platform = await newPlatform();
    await platform.plan({ delay_ms: 400 });
    const quizId = await newQuiz();
    const people = await learners(platform, quizId, 30);
    for (const who of people) await keptGrade(quizId, who, { earned: 1, possible: 1 });
    const ids = (await ledger(`&quiz_id=${quizId}`)).map((row) => row.id as string);
    expect(ids).toHaveLength(30);
    // As if 30 consumer invocations each held one of the rows' wake-ups (the queue's own
    // wake-ups race them too); the lease makes each row sent once, and the platform's cap holds.
    await Promise.all(ids.map((id) => processPassback(env, db, new WakeUps(), { kind: "lti_passback", passback_id: id })));
    await eventually(async () => expect((await ledger(`&quiz_id=${quizId}&status=succeeded`)).length).toBe(30), 60_000);
    const log = await platform.log();
    expect(log.max_in_flight).toBeLessThanOrEqual(10);
    expect(log.max_in_flight).toBeGreaterThanOrEqual(5);
    const subs = log.scores.map((s) => s.body.userId);
    expect(new Set(subs).size).toBe(30);
    expect(subs).toHaveLength(30);
  }, 120_000);
});
