import { eq, sql } from "drizzle-orm";
import { commit, type WakeUps } from "../db/after-commit";
import { eventStatement } from "../db/outbox";
import { questions, quizzes, submissions } from "../db/schema";
import { statement, tableRows } from "../db/statements";
import { pointsSentence, type StoredAnswerResult, scoreSubmission } from "../domain/grading";
import { gradableQuestion } from "../domain/questions";
import { readSettings } from "../domain/quiz-settings";
import type { GradedBy } from "../domain/submissions";
import type { Database } from "../env";
import { ApiError, notFound } from "../lib/errors";
import { isoNow } from "../lib/time";
import { keptGradeChanged } from "./kept-grade-followers";
import { presentedQuestions, type SubmissionRow, serializeSubmission } from "./submission";
import { countGraded } from "./totals";

/** How often a grade re-reads a submission whose answers changed between its read and its claim. */
const GRADE_ATTEMPTS = 5;

export function gradeResponse(row: SubmissionRow) {
  if (row.status === "open" || row.score === null) throw notGraded();
  return {
    submission_id: row.id,
    score: row.score,
    // Rows graded before feedback was always a string may hold null.
    feedback: row.feedback ?? pointsSentence(row.pointsEarned ?? 0, row.pointsPossible ?? 0, row.score),
    points_earned: row.pointsEarned ?? 0,
    points_possible: row.pointsPossible ?? 0,
    status: row.status,
    graded_at: row.status === "graded" ? row.gradedAt : null,
  };
}

const notGraded = () => new ApiError("not_graded", "The submission has not been graded yet.");

/**
 * Grades a submission exactly once. One D1 read (a batch of three selects) fetches the
 * submission, its quiz's settings and questions; one atomic D1 batch closes the submission and
 * updates every aggregate. The batch's first statement claims the submission with a fresh
 * token only while it is still open; every later statement runs only where that token stands,
 * so of any number of concurrent graders exactly one changes anything (and records the
 * submission.graded event), and analytics count the submission once. The others, and any
 * later call, answer the stored grade.
 *
 * The claim also requires the answers revision that was read: an answers write that lands
 * between the read and the claim makes the claim miss, and the grade starts over with the new
 * answers. A write after the claim finds the submission closed (409). So an answers write
 * answered 2xx is always part of what is graded.
 */
export async function gradeExactlyOnce(db: Database, wakeUps: WakeUps, id: string, by: GradedBy = "request") {
  for (let attempt = 1; ; attempt++) {
    const outcome = await tryGrade(db, wakeUps, id, by);
    if (outcome !== "answers_changed") return outcome;
    if (attempt === GRADE_ATTEMPTS)
      throw new ApiError("answers_changing", "The submission's answers kept changing while it was graded; retry.");
  }
}

/** What grading reads: the submission, its quiz's settings and its questions in order. */
type QuestionRow = typeof questions.$inferSelect;

/**
 * A grade planned from what was read, in values: the submission as the claim leaves it, and the
 * batch's statements — the claim first (this grade's fresh token, only while the submission is
 * open at the answers revision read), then every aggregate and the event, each conditioned on it.
 */
export function planGrade(
  db: Database,
  submission: SubmissionRow,
  settings: Parameters<typeof readSettings>[0],
  questionRows: QuestionRow[],
  by: GradedBy,
): { closed: SubmissionRow; statements: D1PreparedStatement[] } {
  const { id } = submission;
  // Only what the submission presents is graded: points_possible counts those questions alone.
  const shown = presentedQuestions(questionRows, submission.presented);
  const result = scoreSubmission(shown.map(gradableQuestion), submission.answers, readSettings(settings).feedback_bands);
  const stored: StoredAnswerResult[] = result.answers.map((a, i) => ({
    question_id: a.question_id,
    version: shown[i]?.version ?? 1,
    correct: a.correct,
    points_earned: a.points_earned,
    points_possible: a.points_possible,
    ...(a.chosen === undefined ? {} : { chosen: a.chosen }),
    ...(a.pending ? { pending: true as const } : {}),
  }));
  const now = isoNow();
  // An answered essay leaves the submission needing review: closed, not yet counted anywhere.
  const status = result.needs_review ? "needs_review" : "graded";
  const token = crypto.randomUUID();
  const won = sql`EXISTS (SELECT 1 FROM submissions WHERE id = ${id} AND grade_token = ${token})`;
  const x = result.score;
  const claim = sql`
    UPDATE submissions SET status = ${status}, score = ${x}, points_earned = ${result.points_earned},
      points_possible = ${result.points_possible}, feedback = ${result.feedback},
      results = ${JSON.stringify(stored)}, grade_token = ${token}, graded_by = ${by},
      graded_at = ${status === "graded" ? now : null}, updated_at = ${now}
    WHERE id = ${id} AND status = 'open' AND answers_revision = ${submission.answersRevision}`;
  const closed: SubmissionRow = {
    ...submission,
    status,
    score: x,
    pointsEarned: result.points_earned,
    pointsPossible: result.points_possible,
    feedback: result.feedback,
    results: stored,
    gradedBy: by,
    gradedAt: status === "graded" ? now : null,
    updatedAt: now,
  };
  // Counted everywhere (and submission.graded recorded) only once graded; a submission that needs
  // review records submission.needs_review and is counted when its last essay is reviewed.
  const writes =
    status === "graded"
      ? countGraded(db, closed, won)
      : [
          eventStatement(db, { type: "submission.needs_review", object: serializeSubmission(closed) }, won),
          // Waiting for a review may hold the kept grade back: the gradebook shows PendingManual.
          ...keptGradeChanged({ quizId: closed.quizId, userId: closed.userId, changedAt: now }, won).map((s) => statement(db, s)),
        ];
  return { closed, statements: [statement(db, claim), ...writes] };
}

const SUBMISSION = tableRows(submissions);
const QUESTION = tableRows(questions);
/** The grade's one read, as constant text: the submission, its quiz's settings, its questions in order. */
const READ = [
  `SELECT ${SUBMISSION.columns} FROM submissions WHERE id = ?1`,
  "SELECT settings FROM quizzes WHERE id = (SELECT quiz_id FROM submissions WHERE id = ?1)",
  `SELECT ${QUESTION.columns} FROM questions WHERE quiz_id = (SELECT quiz_id FROM submissions WHERE id = ?1) ORDER BY position`,
];

async function tryGrade(db: Database, wakeUps: WakeUps, id: string, by: GradedBy) {
  const [subRows, quizRows, questionRows] = await db.$client.batch<Record<string, unknown>>(
    READ.map((text) => db.$client.prepare(text).bind(id)),
  );
  const submission = subRows?.results[0] && SUBMISSION.map(subRows.results[0]);
  const settings = quizRows?.results[0]?.settings;
  if (!submission || typeof settings !== "string") throw notFound("Submission");
  if (submission.status !== "open") return gradeResponse(submission);
  const questionList = (questionRows?.results ?? []).map(QUESTION.map);
  const quizSettings = quizzes.settings.mapFromDriverValue(settings) as Parameters<typeof readSettings>[0];
  const { closed, statements } = planGrade(db, submission, quizSettings, questionList, by);
  const outcome = await commit(db, wakeUps, statements);
  if (outcome[0]?.meta.changes === 1) return gradeResponse(closed);
  // Another call graded it between our read and our write (answer what it stored), or the
  // answers changed (grade again).
  const [now_] = await db.select().from(submissions).where(eq(submissions.id, id));
  if (!now_) throw notFound("Submission");
  if (now_.status === "open") return "answers_changed" as const;
  return gradeResponse(now_);
}
