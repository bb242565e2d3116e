import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { eventStatement } from "../../db/outbox";
import { questions, quizzes, submissions, users } from "../../db/schema";
import { statement } from "../../db/statements";
import { answerProblems, type SubmittedAnswer } from "../../domain/answers";
import { pointsSentence } from "../../domain/grading";
import { gradableQuestion } from "../../domain/questions";
import type { SubmissionStatus } from "../../domain/submissions";
import type { Database } from "../../env";
import { ApiError, conflict, errorChainText, notFound, validationFailed } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";

export type SubmissionRow = typeof submissions.$inferSelect;

export function serializeSubmission(row: SubmissionRow) {
  return {
    id: row.id,
    quiz_id: row.quizId,
    user_id: row.userId,
    attempt: row.attempt,
    status: row.status,
    answers: row.answers,
    score: row.score,
    points_earned: row.pointsEarned,
    points_possible: row.pointsPossible,
    feedback:
      row.status === "graded"
        ? (row.feedback ?? pointsSentence(row.pointsEarned ?? 0, row.pointsPossible ?? 0, row.score ?? 0))
        : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    graded_at: row.gradedAt,
  };
}

/**
 * The attempt number SQL gave a new submission, written into the submission.created event just
 * inserted for it (the batch's last insert), since that number is known only when the batch runs.
 */
const attemptIntoEvent = (db: Database, submissionId: string) =>
  statement(
    db,
    sql`UPDATE events SET data = json_set(data, '$.object.attempt', (SELECT attempt FROM submissions WHERE id = ${submissionId}))
        WHERE rowid = last_insert_rowid() AND json_extract(data, '$.object.id') = ${submissionId}`,
  );

/** The answers, checked against the quiz's questions (domain/answers): 400 naming each bad answer. */
function checkAnswers(answers: SubmittedAnswer[], quizQuestions: (typeof questions.$inferSelect)[]): void {
  const errors = answerProblems(answers, quizQuestions.map(gradableQuestion));
  if (errors.length > 0) throw validationFailed(errors);
}

export async function createSubmission(db: Database, quizId: string, input: { user_id: string; answers: SubmittedAnswer[] }) {
  const [quizRows, questionRows, userRows] = await db.batch([
    db.select({ settings: quizzes.settings }).from(quizzes).where(eq(quizzes.id, quizId)),
    db.select().from(questions).where(eq(questions.quizId, quizId)),
    db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, input.user_id), isNull(users.deletedAt))),
  ]);
  const quiz = quizRows[0];
  if (!quiz) throw notFound("Quiz");
  if (userRows.length === 0) throw validationFailed([{ path: "user_id", message: "No such user." }]);
  checkAnswers(input.answers, questionRows);

  const now = isoNow();
  const id = newId("submission");
  const maxAttempts = quiz.settings.max_attempts;
  const row: SubmissionRow = {
    id,
    quizId,
    userId: input.user_id,
    attempt: 0, // numbered by the INSERT below
    status: "open",
    answers: input.answers,
    answersRevision: 0,
    score: null,
    pointsEarned: null,
    pointsPossible: null,
    feedback: null,
    results: null,
    gradeToken: null,
    createdAt: now,
    updatedAt: now,
    gradedAt: null,
  };
  // One statement numbers the attempt and enforces max_attempts, so concurrent submissions by
  // one user cannot both take the last attempt (the unique index backs this up). The event is
  // written only if it inserted, and then given the attempt number.
  const [inserted] = await db.$client
    .batch<{ attempt: number }>([
      statement(
        db,
        sql`
    INSERT INTO submissions (id, quiz_id, user_id, attempt, status, answers, created_at, updated_at)
    SELECT ${id}, ${quizId}, ${input.user_id}, count(*) + 1, 'open', ${JSON.stringify(input.answers)}, ${now}, ${now}
    FROM submissions WHERE quiz_id = ${quizId} AND user_id = ${input.user_id}
    HAVING ${maxAttempts} IS NULL OR count(*) < ${maxAttempts}
    RETURNING attempt`,
      ),
      eventStatement(db, { type: "submission.created", object: serializeSubmission(row) }, "after-change"),
      attemptIntoEvent(db, id),
    ])
    .catch((error: unknown) => {
      // The quiz was deleted since it was read (it had no submission yet, so deleting it was allowed).
      if (errorChainText(error).includes("FOREIGN KEY")) throw notFound("Quiz");
      throw error;
    });
  const attempt = inserted?.results[0]?.attempt;
  if (attempt === undefined)
    throw conflict("attempt_limit_reached", `The user has used all ${maxAttempts} attempts at this quiz.`);
  return serializeSubmission({ ...row, attempt });
}

export async function getSubmissionRow(db: Database, id: string) {
  const [row] = await db.select().from(submissions).where(eq(submissions.id, id));
  if (!row) throw notFound("Submission");
  return row;
}

const gradedConflict = () => new ApiError(409, "submission_graded", "The submission is graded; its answers are final.");

export async function replaceAnswers(db: Database, id: string, answers: SubmittedAnswer[]) {
  const quizOf = db.select({ quizId: submissions.quizId }).from(submissions).where(eq(submissions.id, id));
  const [subRows, questionRows] = await db.batch([
    db.select().from(submissions).where(eq(submissions.id, id)),
    db.select().from(questions).where(inArray(questions.quizId, quizOf)),
  ]);
  const current = subRows[0];
  if (!current) throw notFound("Submission");
  if (current.status !== "open") throw gradedConflict();
  checkAnswers(answers, questionRows);
  const [row] = await db
    .update(submissions)
    .set({ answers, answersRevision: sql`${submissions.answersRevision} + 1`, updatedAt: isoNow() })
    .where(and(eq(submissions.id, id), eq(submissions.status, "open")))
    .returning();
  if (!row) throw gradedConflict();
  return serializeSubmission(row);
}

/**
 * Submissions of one quiz or one user, oldest first; 404 when the quiz or user does not exist
 * (a deleted user included, whether or not the page is empty). The owner check rides in the
 * page query's batch: one round trip.
 */
export async function listSubmissions(
  db: Database,
  owner: { quizId: string } | { userId: string },
  filter: { after?: string; status?: SubmissionStatus },
  limit: number,
) {
  const ownerCondition = "quizId" in owner ? eq(submissions.quizId, owner.quizId) : eq(submissions.userId, owner.userId);
  const ownerExists =
    "quizId" in owner
      ? db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.id, owner.quizId))
      : db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, owner.userId), isNull(users.deletedAt)));
  const [exists, rows] = await db.batch([
    ownerExists,
    db
      .select()
      .from(submissions)
      .where(
        and(
          ownerCondition,
          filter.after === undefined ? undefined : gt(submissions.id, filter.after),
          filter.status === undefined ? undefined : eq(submissions.status, filter.status),
        ),
      )
      .orderBy(asc(submissions.id))
      .limit(limit + 1),
  ]);
  if (exists.length === 0) throw notFound("quizId" in owner ? "Quiz" : "User");
  return rows.map(serializeSubmission);
}
