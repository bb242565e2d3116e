import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import { counts } from "../../db/kept-grade";
import { questions, questionVersions, quizzes, submissions } from "../../db/schema";
import type { QuestionType } from "../../domain/question-types";
import { type GradingPolicy, readSettings } from "../../domain/quiz-settings";
import {
  type ExportedSubmission,
  type ExportShape,
  exportPageRows,
  type QuizColumn,
  typeKey,
  versionRefs,
} from "../../domain/results-export";
import type { Database } from "../../env";
import { notFound } from "../../lib/errors";

/** The quiz as the export reads it once, before its first byte: a 404 is still possible then. */
export interface ExportQuiz {
  id: string;
  policy: GradingPolicy;
  columns: QuizColumn[];
  pageRows: number;
}

export async function findExportQuiz(db: Database, quizId: string): Promise<ExportQuiz> {
  const [quizRows, questionRows] = await db.batch([
    db.select({ settings: quizzes.settings }).from(quizzes).where(eq(quizzes.id, quizId)),
    db
      .select({ id: questions.id, position: questions.position, answerBytes: questions.answerBytes })
      .from(questions)
      .where(eq(questions.quizId, quizId))
      .orderBy(asc(questions.position)),
  ]);
  const quiz = quizRows[0];
  if (!quiz) throw notFound("Quiz");
  return {
    id: quizId,
    policy: readSettings(quiz.settings).grading_policy,
    columns: questionRows.map((q) => ({ questionId: q.id, position: q.position })),
    pageRows: exportPageRows(questionRows.reduce((sum, q) => sum + q.answerBytes, 0)),
  };
}

/** Where a page starts: after the last (created_at, id) of the page before. */
export interface ExportCursor {
  createdAt: string;
  id: string;
}

/**
 * One page of the quiz's graded and needs-review submissions in (created_at, id) order, after
 * `cursor`; with `since`, only those graded at or after it (a submission that needs review has no
 * graded_at yet). The answers shape also reads the responses and the presented order.
 */
export async function exportPage(
  db: Database,
  quiz: ExportQuiz,
  shape: ExportShape,
  options: { cursor: ExportCursor | undefined; since: string | undefined },
): Promise<ExportedSubmission[]> {
  const { cursor, since } = options;
  // The page's keys first, on their own: sorting (created_at, id) pairs costs far less than
  // sorting whole rows, and the rows, their kept grade and their responses are then read for the
  // page alone.
  const page = db
    .select({ id: submissions.id })
    .from(submissions)
    .where(
      and(
        eq(submissions.quizId, quiz.id),
        inArray(submissions.status, ["graded", "needs_review"]),
        // A row value: the page starts right after the cursor, ties on created_at broken by id.
        cursor === undefined
          ? undefined
          : sql`(${submissions.createdAt}, ${submissions.id}) > (${cursor.createdAt}, ${cursor.id})`,
        since === undefined ? undefined : gte(submissions.gradedAt, since),
      ),
    )
    .orderBy(asc(submissions.createdAt), asc(submissions.id))
    .limit(quiz.pageRows)
    .as("page");
  // The submissions shape leaves the responses, the largest part of a row, in D1.
  const answersShape = shape === "answers";
  const rows = await db
    .select({
      id: submissions.id,
      userId: submissions.userId,
      attempt: submissions.attempt,
      status: submissions.status,
      createdAt: submissions.createdAt,
      gradedAt: submissions.gradedAt,
      gradedBy: submissions.gradedBy,
      score: submissions.score,
      pointsEarned: submissions.pointsEarned,
      pointsPossible: submissions.pointsPossible,
      results: submissions.results,
      // The kept grade's one rule (src/domain/kept-grade.ts), as its SQL.
      kept: sql<number>`coalesce(${counts(quiz.policy)}, 0)`.mapWith(Number),
      answers: answersShape ? submissions.answers : sql<null>`NULL`,
      presented: answersShape ? submissions.presented : sql<null>`NULL`,
    })
    .from(page)
    .innerJoin(submissions, eq(submissions.id, page.id))
    .orderBy(asc(submissions.createdAt), asc(submissions.id));
  return rows.map((row) => ({ ...row, answers: row.answers ?? undefined, kept: row.kept === 1 }));
}

/**
 * The types of the question versions a page's answers were graded against that `known` lacks
 * (a type may change with a new version), added to it: one query, and none once the quiz's
 * versions are known, which the first page usually makes so.
 */
export async function addQuestionTypes(db: Database, rows: readonly ExportedSubmission[], known: Map<string, QuestionType>) {
  const missing = versionRefs(rows).filter((ref) => !known.has(typeKey(ref.questionId, ref.version)));
  if (missing.length === 0) return;
  const found = await db
    .select({ questionId: questionVersions.questionId, version: questionVersions.version, type: questionVersions.type })
    .from(questionVersions)
    .where(
      sql`(${questionVersions.questionId}, ${questionVersions.version}) IN (
        SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(${JSON.stringify(missing.map((r) => [r.questionId, r.version]))}))`,
    );
  for (const v of found) known.set(typeKey(v.questionId, v.version), v.type);
}
