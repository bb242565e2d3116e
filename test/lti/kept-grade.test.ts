import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { wakeUpsOf } from "../../src/db/after-commit";
import { statement } from "../../src/db/statements";
import { keptGradeStatement } from "../../src/lti/ledger";
import { sendWakeUps } from "../../src/worker/after-commit";
import { db, learner, ledger, newQuiz } from "./learners";
import { eventually, newPlatform, unique } from "./platform";

// The statement the grading batch includes when a kept grade changes, as that batch uses it: after
// its claim, written only where the claim stands, and handed over from the batch's results.

describe("keptGradeStatement in a grading batch", { timeout: 60_000 }, () => {
  it("writes the ledger only where the batch's claim stands, and the hand-over finds its rows among the batch's results", async () => {
    const platform = await newPlatform();
    const quizId = await newQuiz();
    const who = await learner(platform, quizId, platform.lineitem(unique("item")));
    // A claim like the grade's: a fresh token and the grade, set only on a submission no grader
    // claimed yet; the ledger statement then finds the kept grade the claim wrote.
    const claimBatch = (token: string, earned: number) =>
      db.$client.batch([
        statement(
          db,
          sql`UPDATE submissions SET grade_token = ${token}, status = 'graded', score = ${earned * 10},
                points_earned = ${earned}, points_possible = 10, graded_at = ${new Date().toISOString()}
              WHERE id = ${who.submissionId} AND grade_token IS NULL`,
        ),
        statement(db, sql`SELECT 1 AS other_statement`),
        statement(
          db,
          keptGradeStatement(
            { quizId, userId: who.userId, changedAt: new Date().toISOString() },
            sql`EXISTS (SELECT 1 FROM submissions WHERE id = ${who.submissionId} AND grade_token = ${token})`,
          ),
        ),
      ]);

    const won = await claimBatch(crypto.randomUUID(), 6);
    const lost = await claimBatch(crypto.randomUUID(), 1);
    expect(won[0]?.meta.changes).toBe(1);
    expect(lost[0]?.meta.changes).toBe(0);
    const rows = await ledger(`&user_id=${who.userId}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ score_given: 6, status: "pending", attempts: 0 });

    await sendWakeUps(env, db, wakeUpsOf(lost));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await platform.log()).scores).toEqual([]);
    await sendWakeUps(env, db, wakeUpsOf(won));
    await eventually(async () => expect((await ledger(`&user_id=${who.userId}`))[0]?.status).toBe("succeeded"));
    expect((await platform.log()).scores.map((s) => s.body.scoreGiven)).toEqual([6]);
  });
});
