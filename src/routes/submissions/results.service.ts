import { eq, sql } from "drizzle-orm";
import { questionVersions, quizzes, submissions } from "../../db/schema";
import { allowedAttempts } from "../../domain/attempts";
import { type AnswerResult, correctAnswerOf, type StoredAnswerResult } from "../../domain/grading";
import { gradableQuestion } from "../../domain/questions";
import { readSettings } from "../../domain/quiz-settings";
import { chosenOptionFeedback, resultsRevealKeys, shownCommentary, withAnswerKey } from "../../domain/reveal";
import type { Database } from "../../env";
import { gradeResponse } from "../../grading/grade";
import { notFound } from "../../lib/errors";
import { isoNow } from "../../lib/time";

type QuestionVersionRow = typeof questionVersions.$inferSelect;

/**
 * The graded submission with per-answer detail: responses from the stored answers; type,
 * feedback, explanation and key from the question version each answer was graded against
 * (one round trip: the versions are found through the results' references). The key, and the
 * question's feedback and explanation that are part of it (docs/security.md), only where the reveal policy
 * shows it to this credential.
 */
export async function getResults(db: Database, id: string, scopes: readonly string[]) {
  const graded = sql`(SELECT results FROM submissions WHERE id = ${id})`;
  const [rows, versions] = await db.batch([
    db
      .select({
        submission: submissions,
        settings: quizzes.settings,
        gradedAttempts: sql<number>`coalesce((SELECT attempts FROM grades
          WHERE grades.quiz_id = submissions.quiz_id AND grades.user_id = submissions.user_id), 0)`.mapWith(Number),
        extraAttempts: sql<number>`coalesce((SELECT extra_attempts FROM accommodations
          WHERE accommodations.quiz_id = submissions.quiz_id AND accommodations.user_id = submissions.user_id), 0)`.mapWith(
          Number,
        ),
        // The user's submissions at the quiz, and those still open: whether they can still answer.
        attemptsUsed: sql<number>`(SELECT count(*) FROM submissions AS mine
          WHERE mine.quiz_id = submissions.quiz_id AND mine.user_id = submissions.user_id)`.mapWith(Number),
        openSubmissions: sql<number>`(SELECT count(*) FROM submissions AS mine
          WHERE mine.quiz_id = submissions.quiz_id AND mine.user_id = submissions.user_id AND mine.status = 'open')`.mapWith(
          Number,
        ),
      })
      .from(submissions)
      .innerJoin(quizzes, eq(quizzes.id, submissions.quizId))
      .where(eq(submissions.id, id)),
    db
      .select()
      .from(questionVersions)
      .where(
        sql`(${questionVersions.questionId}, ${questionVersions.version}) IN (
          SELECT json_extract(value, '$.question_id'), json_extract(value, '$.version') FROM json_each(${graded}))`,
      ),
  ]);
  const row = rows[0];
  if (!row) throw notFound("Submission");
  const { submission } = row;
  const settings = readSettings(row.settings);
  const reveal = resultsRevealKeys(scopes, {
    policy: settings.show_correct_answers,
    now: isoNow(),
    gradedAttempts: row.gradedAttempts,
    attemptsUsed: row.attemptsUsed,
    openSubmissions: row.openSubmissions,
    allowedAttempts: allowedAttempts(settings.max_attempts, row.extraAttempts),
    availableUntil: settings.available_until,
    deadlineAt: submission.deadlineAt,
  });
  const byRef = new Map(versions.map((v) => [`${v.questionId}#${v.version}`, v]));
  const responses = new Map(submission.answers.map((a) => [a.question_id, a.response]));
  // Rows graded before results referenced question versions hold the legacy form.
  const stored: readonly (StoredAnswerResult | LegacyAnswerResult)[] = submission.results ?? [];
  const answers = stored.map((entry) => {
    if ("type" in entry) {
      // Graded before results referenced versions: the entry holds its own copies.
      const { correct_answer, ...answer } = entry;
      const hidden = reveal ? {} : { feedback: null, explanation: null };
      return withAnswerKey({ ...answer, ...hidden }, reveal, () => correct_answer);
    }
    return answerResult(entry, byRef.get(`${entry.question_id}#${entry.version}`), responses.get(entry.question_id), reveal);
  });
  return {
    ...gradeResponse(submission),
    quiz_id: submission.quizId,
    user_id: submission.userId,
    graded_by: submission.gradedBy ?? "request",
    answers,
  };
}

type LegacyAnswerResult = AnswerResult;

function answerResult(entry: StoredAnswerResult, version: QuestionVersionRow | undefined, response: unknown, reveal: boolean) {
  // Versions are never deleted (the migration that introduced them copied every question).
  if (!version) throw new Error(`question version ${entry.question_id}#${entry.version} is missing`);
  const question = gradableQuestion({ ...version, id: version.questionId });
  const shown = shownCommentary({ feedback: question.feedback, explanation: question.explanation ?? null }, reveal);
  // A review's feedback is the reviewer's word on this answer, not the question's: always shown.
  const feedback = entry.review ? entry.review.feedback : entry.correct ? shown.feedback.correct : shown.feedback.incorrect;
  const answer = {
    question_id: entry.question_id,
    question_version: entry.version,
    type: question.type,
    response: response === undefined ? null : response,
    correct: entry.correct,
    // An answered essay has no points until it is reviewed.
    points_earned: entry.pending ? null : entry.points_earned,
    points_possible: entry.points_possible,
    feedback: feedback ?? null,
    explanation: shown.explanation,
  };
  const optionFeedback = chosenOptionFeedback(question, response, reveal);
  return withAnswerKey(optionFeedback ? { ...answer, option_feedback: optionFeedback } : answer, reveal, () =>
    correctAnswerOf(question),
  );
}
