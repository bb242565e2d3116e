import type { SQL } from "drizzle-orm";

/**
 * Grading announces every change of a kept grade to whatever follows kept grades from outside
 * grading — the LTI ledger, which sends the gradebook its score — without importing it: a
 * follower is handed to grading by the worker's entry (src/worker/wiring.ts), and grading only
 * places the statement the follower gives into the batch that changes the grade.
 */

/** A change of a user's kept grade at a quiz: a grade, a deadline's grade, a review or a regrade, at `changedAt`. */
export interface KeptGradeChange {
  quizId: string;
  userId: string;
  /** ISO 8601 with milliseconds: the change's time. */
  changedAt: string;
}

/**
 * What follows kept grades: the statement it adds to every batch that may change one, written only
 * where `when` (the batch's claim) holds, so that it commits with the change or not at all. It
 * finds the kept grade as the batch leaves it (src/db/kept-grade.ts) and returns what it wakes
 * (src/db/after-commit.ts).
 */
export interface KeptGradeFollower {
  statement(change: KeptGradeChange, when: SQL): SQL;
}

const followers = new Set<KeptGradeFollower>();

/** Makes `follower` follow every kept grade from now on (once, however often it is called). */
export function followKeptGrades(follower: KeptGradeFollower): void {
  followers.add(follower);
}

/** The followers' statements for one change, each conditioned on `when`: one per follower. */
export const keptGradeChanged = (change: KeptGradeChange, when: SQL): SQL[] =>
  [...followers].map((follower) => follower.statement(change, when));
