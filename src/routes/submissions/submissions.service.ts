import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { commit, type WakeUps } from "../../db/after-commit";
import { eventStatement } from "../../db/outbox";
import { accommodations, questions, quizzes, submissions, users } from "../../db/schema";
import { statement } from "../../db/statements";
import { answerProblems, type SubmittedAnswer, stampedAnswers } from "../../domain/answers";
import { allowedAttempts, drawableQuestion, isAvailable, presentQuestions } from "../../domain/attempts";
import { gradableQuestion } from "../../domain/questions";
import { readSettings } from "../../domain/quiz-settings";
import { presentedQuestion } from "../../domain/reveal";
import type { SubmissionStatus } from "../../domain/submissions";
import type { Database } from "../../env";
import { newSubmissionDeadline, windowOpen } from "../../grading/deadline-sql";
import { presentedQuestions, type SubmissionRow, serializeSubmission } from "../../grading/submission";
import { ApiError, conflict, errorChainText, notFound, validationFailed } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import { launchTie } from "../../lti/ledger";
import type { PresentedQuestionView } from "./submissions.schemas";

/**
 * The attempt number and deadline SQL gave a new submission, written into the submission.created
 * event just inserted for it (the batch's last insert), since they are known only when the batch runs.
 */
const attemptIntoEvent = (db: Database, submissionId: string) =>
  statement(
    db,
    sql`UPDATE events SET data = json_set(data,
          '$.object.attempt', (SELECT attempt FROM submissions WHERE id = ${submissionId}),
          '$.object.deadline_at', (SELECT deadline_at FROM submissions WHERE id = ${submissionId}))
        WHERE rowid = last_insert_rowid() AND json_extract(data, '$.object.id') = ${submissionId}`,
  );

type QuestionRow = typeof questions.$inferSelect;

/**
 * The answers, checked against the questions the submission presents (domain/answers): 400
 * naming each bad answer; an answer to a question not presented is one.
 */
function checkAnswers(answers: SubmittedAnswer[], shown: QuestionRow[]): void {
  const errors = answerProblems(answers, shown.map(gradableQuestion));
  if (errors.length > 0) throw validationFailed(errors);
}

const notAvailable = () =>
  conflict("quiz_not_available", "The quiz is not open for submissions now (settings.available_from/until).");
const deadlinePassed = () => conflict("deadline_passed", "The submission's deadline has passed; its answers are final.");

export async function createSubmission(
  db: Database,
  wakeUps: WakeUps,
  quizId: string,
  input: { user_id: string; answers: SubmittedAnswer[]; lti_launch_id?: string },
) {
  const [quizRows, questionRows, userRows, extraRows] = await db.batch([
    db.select({ settings: quizzes.settings }).from(quizzes).where(eq(quizzes.id, quizId)),
    db.select().from(questions).where(eq(questions.quizId, quizId)).orderBy(asc(questions.position)),
    db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, input.user_id), isNull(users.deletedAt))),
    db
      .select()
      .from(accommodations)
      .where(and(eq(accommodations.quizId, quizId), eq(accommodations.userId, input.user_id))),
  ]);
  const quiz = quizRows[0];
  if (!quiz) throw notFound("Quiz");
  if (userRows.length === 0) throw validationFailed([{ path: "user_id", message: "No such user." }]);
  const settings = readSettings(quiz.settings);
  const now = isoNow();
  if (!isAvailable(settings, now)) throw notAvailable();
  // The draw and the orders are made now, uniformly at random, and stored with the submission.
  const presented = presentQuestions(questionRows.map(drawableQuestion), settings);
  checkAnswers(input.answers, presentedQuestions(questionRows, presented));
  // Tied to the launch's line item in the same batch, only if the submission is written.
  const tie = input.lti_launch_id === undefined ? undefined : await launchTie(db, input.lti_launch_id, quizId, input.user_id);

  const extra = extraRows[0];
  const id = newId("submission");
  const maxAttempts = allowedAttempts(settings.max_attempts, extra?.extraAttempts ?? 0);
  const row: SubmissionRow = {
    id,
    quizId,
    userId: input.user_id,
    attempt: 0, // numbered by the INSERT below
    status: "open",
    answers: stampedAnswers(input.answers, now),
    answersRevision: 0,
    answersBaseSeq: 0,
    score: null,
    pointsEarned: null,
    pointsPossible: null,
    feedback: null,
    results: null,
    gradeToken: null,
    deadlineAt: null, // set by the INSERT below
    gradedBy: null,
    presented,
    createdAt: now,
    updatedAt: now,
    gradedAt: null,
  };
  // One statement numbers the attempt and enforces max_attempts, so concurrent submissions by
  // one user cannot both take the last attempt (the unique index backs this up). The same
  // statement reads the window and the deadline from the quiz's settings as they stand when the
  // batch runs, so a settings change racing it either applies to it or finds it (docs/security.md). The
  // event is written only if it inserted, and then given the attempt number and the deadline.
  const [inserted] = await commit<{ attempt: number; deadline_at: string | null }>(db, wakeUps, [
    statement(
      db,
      sql`
    INSERT INTO submissions (id, quiz_id, user_id, attempt, status, answers, deadline_at, presented, created_at, updated_at)
    SELECT ${id}, ${quizId}, ${input.user_id}, count(*) + 1, 'open', ${JSON.stringify(row.answers)},
      ${newSubmissionDeadline(quizId, input.user_id, now)}, ${JSON.stringify(presented)}, ${now}, ${now}
    FROM submissions WHERE quiz_id = ${quizId} AND user_id = ${input.user_id}
    HAVING (${maxAttempts} IS NULL OR count(*) < ${maxAttempts}) AND ${windowOpen(quizId, now)}
    RETURNING attempt, deadline_at`,
    ),
    eventStatement(db, { type: "submission.created", object: serializeSubmission(row) }, "after-change"),
    attemptIntoEvent(db, id),
    ...(tie ? [tie(id)] : []),
  ]).catch((error: unknown) => {
    // The quiz was deleted since it was read (it had no submission yet, so deleting it was allowed).
    if (errorChainText(error).includes("FOREIGN KEY")) throw notFound("Quiz");
    throw error;
  });
  const written = inserted?.results[0];
  if (written === undefined) throw await notInserted(db, quizId, now, maxAttempts);
  return serializeSubmission({ ...row, attempt: written.attempt, deadlineAt: written.deadline_at });
}

/** Why a submission's INSERT wrote nothing: the quiz is gone, its window closed meanwhile, or the attempts are used. */
async function notInserted(db: Database, quizId: string, now: string, maxAttempts: number | null) {
  const [quiz] = await db.select({ settings: quizzes.settings }).from(quizzes).where(eq(quizzes.id, quizId));
  if (!quiz) return notFound("Quiz");
  if (!isAvailable(readSettings(quiz.settings), now)) return notAvailable();
  return conflict("attempt_limit_reached", `The user has used all ${maxAttempts} attempts at this quiz.`);
}

/**
 * GET /v1/submissions/{id}: the submission with each presented question as the caller sees it
 * (`questions[].question`, key hidden but to quizzes:write: domain/reveal), so that a player needs
 * no other read. One round trip: the submission and its quiz's questions in one batch.
 */
export async function getSubmissionWithQuestions(db: Database, id: string, reveal: boolean) {
  const quizOf = db.select({ quizId: submissions.quizId }).from(submissions).where(eq(submissions.id, id));
  const [subRows, questionRows] = await db.batch([
    db.select().from(submissions).where(eq(submissions.id, id)),
    db.select().from(questions).where(inArray(questions.quizId, quizOf)),
  ]);
  const row = subRows[0];
  if (!row) throw notFound("Submission");
  const shown = serializeSubmission(row);
  const byId = new Map(questionRows.map((q) => [q.id, q]));
  return {
    ...shown,
    questions:
      shown.questions?.map((p) => {
        const question = byId.get(p.question_id);
        return question ? { ...p, question: presentedQuestion(question, p.option_order, reveal) as PresentedQuestionView } : p;
      }) ?? null,
  };
}

const gradedConflict = () => new ApiError("submission_graded", "The submission is graded; its answers are final.");

export async function replaceAnswers(db: Database, id: string, answers: SubmittedAnswer[]) {
  const quizOf = db.select({ quizId: submissions.quizId }).from(submissions).where(eq(submissions.id, id));
  const [subRows, questionRows] = await db.batch([
    db.select().from(submissions).where(eq(submissions.id, id)),
    db.select().from(questions).where(inArray(questions.quizId, quizOf)),
  ]);
  const current = subRows[0];
  if (!current) throw notFound("Submission");
  if (current.status !== "open") throw gradedConflict();
  const now = isoNow();
  if (current.deadlineAt !== null && now >= current.deadlineAt) throw deadlinePassed();
  checkAnswers(answers, presentedQuestions(questionRows, current.presented));
  const [row] = await db
    .update(submissions)
    // Every seq is reset to the write's time: those of the answers given and, through the base,
    // those of the questions left out, so a one-answer save sent before this write stays stale.
    .set({
      answers: stampedAnswers(answers, now),
      answersBaseSeq: Date.parse(now),
      answersRevision: sql`${submissions.answersRevision} + 1`,
      updatedAt: now,
    })
    .where(
      and(
        eq(submissions.id, id),
        eq(submissions.status, "open"),
        sql`(${submissions.deadlineAt} IS NULL OR ${submissions.deadlineAt} > ${now})`,
      ),
    )
    .returning();
  if (!row) {
    const [after] = await db.select({ status: submissions.status }).from(submissions).where(eq(submissions.id, id));
    throw after?.status === "open" ? deadlinePassed() : gradedConflict();
  }
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
