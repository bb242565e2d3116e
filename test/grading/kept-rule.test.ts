import { env } from "cloudflare:workers";
import { type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keptGradeWaits, keptOf } from "../../src/db/kept-grade";
import { statement } from "../../src/db/statements";
import { type Attempt, keptAttempt, keptGradeWaits as waitsInValues } from "../../src/domain/kept-grade";
import { GRADING_POLICIES, type GradingPolicy } from "../../src/domain/quiz-settings";
import type { Database } from "../../src/env";

/**
 * The kept grade's rule is one table (src/domain/kept-grade.ts); its SQL (src/db/kept-grade.ts)
 * is derived from it. For random attempt histories — ties in score, attempts awaiting review — and
 * every policy, given as a value (the results export) or read in SQL (the LTI ledger), the SQL
 * keeps the attempt the values keep and waits when they wait.
 */

const db = drizzle(env.DB) as Database;

const histories = fc
  .array(
    fc.record({
      // A few scores only, so that ties are common.
      score: fc.constantFrom(0, 25, 50, 75, 100),
      status: fc.constantFrom<Attempt["status"]>("graded", "graded", "needs_review"),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .chain((rows) =>
    // Attempt numbers are unique per user and quiz, not necessarily in the order the rows come.
    fc
      .shuffledSubarray([1, 2, 3, 4, 5, 6, 7, 8], { minLength: rows.length, maxLength: rows.length })
      .map((numbers) => rows.map((row, i) => ({ id: `sub_${i}`, attempt: numbers[i] as number, ...row }))),
  );

/** The history as a select of submissions rows, for the derived SQL to read (one parameter, however often it is read). */
const attemptsSql = (attempts: (Attempt & { id: string })[]): SQL =>
  sql`SELECT value ->> 'id' AS id, value ->> 'attempt' AS attempt, value ->> 'status' AS status, value ->> 'score' AS score
      FROM json_each(${JSON.stringify(attempts)})`;

async function inSql(attempts: (Attempt & { id: string })[], policy: GradingPolicy | SQL) {
  const mine = attemptsSql(attempts);
  const row = await statement(
    db,
    sql`SELECT (SELECT id FROM (${keptOf(mine, policy)})) AS kept, ${keptGradeWaits(mine, policy)} AS waits`,
  ).first<{ kept: string | null; waits: number }>();
  return { kept: row?.kept ?? undefined, waits: row?.waits === 1 };
}

describe("the kept grade's SQL is its rule", () => {
  it.each(GRADING_POLICIES)(
    "%s: the same attempt kept, the same wait for a review, as a value and read in SQL",
    async (policy) => {
      await fc.assert(
        fc.asyncProperty(histories, async (attempts) => {
          const expected = { kept: keptAttempt(attempts, policy)?.id, waits: waitsInValues(attempts, policy) };
          expect(await inSql(attempts, policy)).toEqual(expected);
          expect(await inSql(attempts, sql`(SELECT ${policy})`)).toEqual(expected);
        }),
        { numRuns: 60 },
      );
    },
  );

  it("keeps by the policy's order: first and latest by attempt, highest the best score's earliest attempt", () => {
    const attempts: (Attempt & { id: string })[] = [
      { id: "a", attempt: 2, score: 75, status: "graded" },
      { id: "b", attempt: 1, score: 50, status: "graded" },
      { id: "c", attempt: 3, score: 75, status: "graded" },
    ];
    expect(keptAttempt(attempts, "first")?.id).toBe("b");
    expect(keptAttempt(attempts, "latest")?.id).toBe("c");
    expect(keptAttempt(attempts, "highest")?.id).toBe("a");
    expect(keptAttempt(attempts, "average")?.id).toBe("c");
    const waiting = [...attempts, { id: "d", attempt: 4, score: 0, status: "needs_review" as const }];
    expect(GRADING_POLICIES.filter((p) => waitsInValues(waiting, p))).toEqual(["highest", "latest", "average"]);
  });
});
