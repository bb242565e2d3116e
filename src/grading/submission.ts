import type { submissions } from "../db/schema";
import { pointsSentence } from "../domain/grading";
import type { PresentedQuestion } from "../domain/submissions";

/**
 * A submission as stored, and as the API and its events show it: the one representation that
 * grading, its events and the submission routes share.
 */
export type SubmissionRow = typeof submissions.$inferSelect;

export function serializeSubmission(row: SubmissionRow) {
  return {
    id: row.id,
    quiz_id: row.quizId,
    user_id: row.userId,
    attempt: row.attempt,
    status: row.status,
    // An answer written before seqs existed shows the base seq and the submission's last change.
    answers: row.answers.map((a) => ({
      question_id: a.question_id,
      response: a.response,
      seq: a.seq ?? row.answersBaseSeq,
      saved_at: a.saved_at ?? row.updatedAt,
    })),
    score: row.score,
    deadline_at: row.deadlineAt,
    graded_by: row.gradedBy,
    questions: row.presented,
    points_earned: row.pointsEarned,
    points_possible: row.pointsPossible,
    feedback:
      row.status !== "open"
        ? (row.feedback ?? pointsSentence(row.pointsEarned ?? 0, row.pointsPossible ?? 0, row.score ?? 0))
        : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    graded_at: row.gradedAt,
  };
}

/** The questions a submission presents: those it drew, else (created before draws were stored) all. */
export function presentedQuestions<Q extends { id: string }>(quizQuestions: Q[], presented: PresentedQuestion[] | null): Q[] {
  if (presented === null) return quizQuestions;
  const byId = new Map(quizQuestions.map((q) => [q.id, q]));
  return presented.flatMap((p) => byId.get(p.question_id) ?? []);
}
