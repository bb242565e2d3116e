import { sql } from "drizzle-orm";
import { commit, type WakeUps } from "../db/after-commit";
import { questions, quizzes, submissions } from "../db/schema";
import { tableRows } from "../db/statements";
import type { Database } from "../env";
import { isoNow } from "../lib/time";
import { DEADLINE_CHUNK } from "../queue/messages";
import { send } from "../queue/send";
import { gradeExactlyOnce, planGrade } from "./grade";

/** Overdue submissions the cron hands to the queue per run (one D1 read of their ids). */
const OVERDUE_PER_RUN = 5000;

/**
 * The cron's part of deadlines: the open submissions whose deadline has passed, oldest deadline
 * first, handed to the queue in chunks of DEADLINE_CHUNK, each graded in one read and one write
 * batch. A backlog larger than a run is picked up by the next run (they are still open and overdue); a
 * submission handed over twice is graded once all the same (the grade's claim).
 */
export async function enqueueOverdue(env: Env, db: Database, nowMs = Date.now()): Promise<number> {
  const overdue = await db.all<{ id: string }>(
    sql`SELECT id FROM submissions WHERE status = 'open' AND deadline_at IS NOT NULL AND deadline_at <= ${isoNow(nowMs)}
        ORDER BY deadline_at LIMIT ${OVERDUE_PER_RUN}`,
  );
  const ids = overdue.map((row) => row.id);
  const messages = [];
  for (let i = 0; i < ids.length; i += DEADLINE_CHUNK)
    messages.push({ kind: "deadline" as const, submission_ids: ids.slice(i, i + DEADLINE_CHUNK) });
  await send(env, messages);
  return ids.length;
}

const SUBMISSION = tableRows(submissions);
const QUIZ = tableRows(quizzes);
const QUESTION = tableRows(questions);
/** A chunk's one read, as constant text (the ids as one JSON parameter): its submissions, their quizzes and questions. */
const READ_CHUNK = [
  `SELECT ${SUBMISSION.columns} FROM submissions WHERE id IN (SELECT value FROM json_each(?1))`,
  `SELECT ${QUIZ.columns} FROM quizzes WHERE id IN (SELECT quiz_id FROM submissions WHERE id IN (SELECT value FROM json_each(?1)))`,
  `SELECT ${QUESTION.columns} FROM questions WHERE quiz_id IN (SELECT quiz_id FROM submissions WHERE id IN (SELECT value FROM json_each(?1)))
   ORDER BY quiz_id, position`,
];

/**
 * Grades a message's overdue submissions as grade calls would, exactly once alongside any racing
 * call, marked graded_by "deadline", grading what was stored before the deadline (later writes
 * were refused) — as one chunk: one read batch (the submissions, their quizzes' settings and
 * questions) and one write batch holding each open submission's claim and the statements
 * conditioned on it. Two D1 round trips for ten grades instead of twenty: in an exam's last
 * minute the database's one writer serves fewer, larger batches. A claim that missed was graded by
 * a learner meanwhile, or its answers moved: the latter is graded again on its own. A batch D1
 * refuses is retried one submission at a time, so one submission's failure does not stop the
 * others; it is thrown after them, and the message is retried (the graded ones answer their
 * stored grade then).
 */
export async function gradeOverdue(db: Database, wakeUps: WakeUps, ids: string[]): Promise<void> {
  const [subRows, quizRows, questionRows] = await db.$client.batch<Record<string, unknown>>(
    READ_CHUNK.map((text) => db.$client.prepare(text).bind(JSON.stringify(ids))),
  );
  const rows = (subRows?.results ?? []).map(SUBMISSION.map);
  const quizList = (quizRows?.results ?? []).map(QUIZ.map);
  const questionList = (questionRows?.results ?? []).map(QUESTION.map);
  const settings = new Map(quizList.map((q) => [q.id, q.settings]));
  const planned = rows
    .filter((row) => row.status === "open" && settings.has(row.quizId))
    .map((row) => ({
      id: row.id,
      ...planGrade(
        db,
        row,
        settings.get(row.quizId) ?? {},
        questionList.filter((q) => q.quizId === row.quizId),
        "deadline",
      ),
    }));
  if (planned.length === 0) return;
  // Each submission's claim, and where it sits in the batch.
  const claims: number[] = [];
  const statements: D1PreparedStatement[] = [];
  for (const p of planned) {
    claims.push(statements.length);
    statements.push(...p.statements);
  }
  let outcome: D1Result[];
  try {
    outcome = await commit(db, wakeUps, statements);
  } catch {
    return gradeEach(
      db,
      wakeUps,
      planned.map((p) => p.id),
    );
  }
  const missed = planned.filter((_, i) => outcome[claims[i] as number]?.meta.changes !== 1).map((p) => p.id);
  if (missed.length > 0) await gradeEach(db, wakeUps, missed);
}

/** One submission at a time, each as a grade call (the answers it finds, or the grade stored). */
async function gradeEach(db: Database, wakeUps: WakeUps, ids: string[]): Promise<void> {
  const failures: unknown[] = [];
  for (const id of ids) {
    try {
      await gradeExactlyOnce(db, wakeUps, id, "deadline");
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0)
    throw new AggregateError(failures, `${failures.length} of ${ids.length} overdue submissions failed to grade`);
}
