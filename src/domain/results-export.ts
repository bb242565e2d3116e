import type { SubmittedAnswer } from "./answers";
import type { StoredAnswerResult } from "./grading";
import type { QuestionType } from "./question-types";
import type { GradedBy, PresentedQuestion } from "./submissions";

/**
 * The results export (docs/api.md), as values: its columns, one record per submission or per
 * presented question, and how many submissions one page of the stream reads. The route streams
 * pages of stored rows through these; docs/reports.md describes every column.
 */

export const EXPORT_FORMATS = ["csv", "ndjson"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_SHAPES = ["submissions", "answers"] as const;
export type ExportShape = (typeof EXPORT_SHAPES)[number];

/** The submissions shape's columns, in order; a q<position>_points column per question of the quiz follows. */
export const SUBMISSION_COLUMNS = [
  "submission_id",
  "user_id",
  "attempt",
  "status",
  "created_at",
  "graded_at",
  "graded_by",
  "score",
  "points_earned",
  "points_possible",
  "kept",
] as const;

export const ANSWER_COLUMNS = [
  "submission_id",
  "user_id",
  "question_id",
  "position",
  "type",
  "question_version",
  "response",
  "points_earned",
  "points_possible",
  "correct",
] as const;

/** A question of the quiz, in the quiz's order: its column of the submissions shape. */
export interface QuizColumn {
  questionId: string;
  position: number;
}

export const questionColumn = (position: number) => `q${position}_points`;

/** A graded result stored before results referenced question versions: it names its own type. */
interface LegacyResult {
  question_id: string;
  type: QuestionType;
  correct: boolean;
  points_earned: number;
  points_possible: number;
  pending?: true;
}

/** What the export reads of one graded or needs-review submission. */
export interface ExportedSubmission {
  id: string;
  userId: string;
  attempt: number;
  status: "graded" | "needs_review" | "open";
  createdAt: string;
  gradedAt: string | null;
  gradedBy: GradedBy | null;
  score: number | null;
  pointsEarned: number | null;
  pointsPossible: number | null;
  results: readonly (StoredAnswerResult | LegacyResult)[] | null;
  /** Whether the quiz's grading policy keeps this attempt (decided in SQL against the kept grade). */
  kept: boolean;
  /** The answers shape only: the responses and the order the submission presented its questions in. */
  answers?: readonly SubmittedAnswer[];
  presented?: readonly PresentedQuestion[] | null;
}

export type ExportRecord = Record<string, unknown>;

const pointsOf = (entry: { points_earned: number; pending?: true }) => (entry.pending ? null : entry.points_earned);

/**
 * One submission: the figures GET /v1/submissions/{id}/results shows (graded_at empty while it
 * needs review, graded_by "request" for rows graded before it was recorded), and per question of
 * the quiz the points it earned — null when it was not presented, or is an essay awaiting review.
 */
export function submissionRecord(row: ExportedSubmission, columns: readonly QuizColumn[]): ExportRecord {
  const earned = new Map((row.results ?? []).map((entry) => [entry.question_id, pointsOf(entry)]));
  const record: ExportRecord = {
    submission_id: row.id,
    user_id: row.userId,
    attempt: row.attempt,
    status: row.status,
    created_at: row.createdAt,
    graded_at: row.status === "graded" ? row.gradedAt : null,
    graded_by: row.gradedBy ?? "request",
    score: row.score,
    points_earned: row.pointsEarned ?? 0,
    points_possible: row.pointsPossible ?? 0,
    kept: row.status === "graded" && row.kept,
  };
  for (const column of columns) record[questionColumn(column.position)] = earned.get(column.questionId) ?? null;
  return record;
}

/** The question version a result was graded against; null for a legacy result, which names no version. */
const versionOf = (entry: StoredAnswerResult | LegacyResult) => ("version" in entry ? entry.version : null);

/** The (question, version) pairs whose type a page's answers need: legacy results carry their own. */
export function versionRefs(rows: readonly ExportedSubmission[]): { questionId: string; version: number }[] {
  const refs = new Map<string, { questionId: string; version: number }>();
  for (const row of rows)
    for (const entry of row.results ?? []) {
      const version = versionOf(entry);
      if (version !== null) refs.set(typeKey(entry.question_id, version), { questionId: entry.question_id, version });
    }
  return [...refs.values()];
}

export const typeKey = (questionId: string, version: number) => `${questionId}#${version}`;

/**
 * One record per question the submission presented, in the order it presented them: its
 * position there, the type of the version it was graded against, the response as stored (null
 * when unanswered) and the points. Nothing of the key.
 */
export function answerRecords(row: ExportedSubmission, types: ReadonlyMap<string, QuestionType>): ExportRecord[] {
  const responses = new Map((row.answers ?? []).map((a) => [a.question_id, a.response]));
  const positions = new Map((row.presented ?? []).map((p) => [p.question_id, p.position]));
  return (row.results ?? []).map((entry, index) => {
    const version = versionOf(entry);
    return {
      submission_id: row.id,
      user_id: row.userId,
      question_id: entry.question_id,
      position: positions.get(entry.question_id) ?? index + 1,
      type: "type" in entry ? entry.type : (types.get(typeKey(entry.question_id, version ?? 0)) ?? null),
      question_version: version,
      response: responses.get(entry.question_id) ?? null,
      points_earned: pointsOf(entry),
      points_possible: entry.points_possible,
      correct: entry.correct,
    };
  });
}

/** What one page may read, in bytes of stored row (UTF-8 JSON): a few times that in the isolate's memory. */
const EXPORT_PAGE_BYTES = 16 * 2 ** 20;
/**
 * At least this many submissions a page: D1 allows 1 000 queries per Worker invocation, and one
 * response must carry 100 000 submissions (about 100 000 ÷ 100 page queries at the least).
 */
const MIN_EXPORT_PAGE_ROWS = 100;
const MAX_EXPORT_PAGE_ROWS = 1000;
/** A row's columns besides its answers and results: ids, timestamps, figures, feedback. */
const EXPORT_ROW_OVERHEAD_BYTES = 2_000;

/**
 * Submissions per page, from the most a row of the quiz can hold: the quiz's questions' answer
 * bytes (each question's answer and result, bounded when it was written) and the row's other
 * columns.
 */
export function exportPageRows(answerBytes: number): number {
  const perRow = EXPORT_ROW_OVERHEAD_BYTES + Math.max(0, answerBytes);
  return Math.min(MAX_EXPORT_PAGE_ROWS, Math.max(MIN_EXPORT_PAGE_ROWS, Math.floor(EXPORT_PAGE_BYTES / perRow)));
}
