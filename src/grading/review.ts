import { eq, sql } from "drizzle-orm";
import { commit, type WakeUps } from "../db/after-commit";
import { concurrentUpdate } from "../db/optimistic";
import { eventStatement } from "../db/outbox";
import { questionVersions, quizzes, submissions } from "../db/schema";
import { statement } from "../db/statements";
import { type StoredAnswerResult, totalOf } from "../domain/grading";
import { fromMicro, MICRO_POINTS_PER_POINT, toMicro } from "../domain/points";
import { readSettings } from "../domain/quiz-settings";
import type { Database } from "../env";
import { ApiError, conflict, notFound, validationFailed } from "../lib/errors";
import { isoNow } from "../lib/time";
import { gradeResponse } from "./grade";
import { type SubmissionRow, serializeSubmission } from "./submission";
import { countGraded, movedStatements, quizScoreRange } from "./totals";

/** How often a review reads the submission again when another write claimed it first. */
const REVIEW_ATTEMPTS = 5;

/**
 * Records a review of an answered essay: its points and feedback. Like a grade, the write claims
 * the submission at the grade token it read and everything else is conditioned on that claim; a
 * concurrent review or regrade makes it read again. The last essay's review grades the submission:
 * it is counted in every aggregate, once, and emits submission.graded. A review of a submission
 * already graded moves the aggregates like a regrade and emits submission.regraded.
 */
export async function reviewAnswer(
  db: Database,
  wakeUps: WakeUps,
  submissionId: string,
  questionId: string,
  input: { points: number; feedback?: string | null },
) {
  for (let attempt = 1; attempt <= REVIEW_ATTEMPTS; attempt++) {
    const [rows, settings, versions] = await db.batch([
      db.select().from(submissions).where(eq(submissions.id, submissionId)),
      db
        .select({ settings: quizzes.settings })
        .from(quizzes)
        .where(sql`${quizzes.id} = (SELECT quiz_id FROM submissions WHERE id = ${submissionId})`),
      db
        .select({ version: questionVersions.version, type: questionVersions.type })
        .from(questionVersions)
        .where(eq(questionVersions.questionId, questionId)),
    ]);
    const row = rows[0];
    if (!row) throw notFound("Submission");
    if (row.status === "open") throw new ApiError("not_graded", "Grade the submission before reviewing its essays.");
    const results = row.results ?? [];
    const entry = results.find((e) => e.question_id === questionId);
    if (!entry) throw notFound("Question");
    const type = versions.find((v) => v.version === entry.version)?.type;
    if (type !== "essay")
      throw validationFailed([{ path: "question_id", message: "Only essays are reviewed; this question is graded by its key." }]);
    if (!entry.pending && entry.review === undefined)
      throw conflict("nothing_to_review", "The essay was not answered: it needs no review and counts 0.");
    const possible = toMicro(entry.points_possible);
    const points = toMicro(input.points);
    if (Math.abs(input.points * MICRO_POINTS_PER_POINT - points) > 1e-6 || points > possible)
      throw validationFailed([
        { path: "points", message: `Points are 0 to the question's ${entry.points_possible}, with at most 6 decimals.` },
      ]);
    const { pending: _pending, ...rest } = entry;
    const reviewed: StoredAnswerResult = {
      ...rest,
      correct: points === possible,
      points_earned: fromMicro(points),
      review: { feedback: input.feedback ?? null },
    };
    const next = results.map((e) => (e === entry ? reviewed : e));
    const earned = next.reduce((s, e) => s + toMicro(e.points_earned), 0);
    const total = totalOf(
      earned,
      next.reduce((s, e) => s + toMicro(e.points_possible), 0),
      readSettings(settings[0]?.settings ?? {}).feedback_bands,
    );
    const now = isoNow();
    const graded = !next.some((e) => e.pending);
    const status = graded ? "graded" : "needs_review";
    const token = crypto.randomUUID();
    const after: SubmissionRow = {
      ...row,
      status,
      results: next,
      score: total.score,
      pointsEarned: total.points_earned,
      pointsPossible: total.points_possible,
      feedback: total.feedback,
      gradeToken: token,
      gradedAt: row.status === "graded" ? row.gradedAt : graded ? now : null,
      updatedAt: now,
    };
    const claim = sql`
      UPDATE submissions SET status = ${status}, results = ${JSON.stringify(next)}, score = ${total.score},
        points_earned = ${total.points_earned}, points_possible = ${total.points_possible}, feedback = ${total.feedback},
        grade_token = ${token}, graded_at = ${after.gradedAt}, updated_at = ${now}
      WHERE id = ${row.id} AND status = ${row.status} AND grade_token IS ${row.gradeToken}`;
    const claimed = sql`EXISTS (SELECT 1 FROM submissions WHERE id = ${row.id} AND grade_token = ${token})`;
    const writes: D1PreparedStatement[] = [];
    if (row.status === "graded") {
      writes.push(
        ...movedStatements(row, { ...total, results: next }, claimed, now).map((s) => statement(db, s)),
        // The quiz's lowest or highest score read again when this was it.
        statement(db, quizScoreRange(row.quizId, sql`${claimed} AND (min_score = ${row.score} OR max_score = ${row.score})`)),
      );
      if (total.score !== row.score || reviewed.points_earned !== entry.points_earned)
        writes.push(
          eventStatement(
            db,
            { type: "submission.regraded", object: serializeSubmission(after), previous: { score: row.score } },
            claimed,
          ),
        );
    } else if (graded) writes.push(...countGraded(db, after, claimed));
    const outcome = await commit(db, wakeUps, [statement(db, claim), ...writes]);
    if (outcome[0]?.meta.changes === 1) return gradeResponse(after);
  }
  throw concurrentUpdate("The submission");
}
