import { type SQL, sql } from "drizzle-orm";
import { assetReferenceStatements } from "../authoring/asset-references";
import { MAX_QUESTIONS_PER_QUIZ } from "../authoring/question.schemas";
import { type QuestionRow, questionEventObject, snapshotVersions, withinRowBudget } from "../authoring/question-rows";
import { type QuizRow, serializeQuiz } from "../authoring/quiz-rows";
import { eventStatement } from "../db/outbox";
import { questions, quizzes } from "../db/schema";
import { prepared, statement } from "../db/statements";
import type { Database } from "../env";
import type { ImportJobResult } from "../jobs/jobs";
import type { AssetRow } from "./assets";

/**
 * An import's one atomic batch: the job marked succeeded with its result (the claim), then the new
 * quiz (or, appending, the quiz touched), its questions, their versions and every event —
 * quiz.created for a new quiz, one question.created per question. Nothing else writes in between.
 *
 * The claim moves the job from queued or running and stamps a fresh token; each question's
 * position is computed in SQL and is NULL — which fails the NOT NULL constraint and rolls the
 * whole batch back — unless the claim holds (no other delivery finished the job), the quiz still
 * has exactly the questions counted when the import was planned, and the answers still fit the
 * row budget. So a second delivery writes nothing twice, and a quiz changed meanwhile makes the
 * job plan again from what is stored, with the positions and events exact.
 */

export interface ImportWrite {
  jobId: string;
  /** The stamp this attempt puts on the job. */
  token: string;
  now: string;
  /** The quiz to create, or undefined when appending to `quizId`. */
  newQuiz?: QuizRow;
  quizId: string;
  /** The questions the quiz had when the import was planned. */
  questionCount: number;
  rows: QuestionRow[];
  /** The new assets the questions refer to (assets.ts): their bytes are in R2 already. */
  assets?: AssetRow[];
  /** Every asset of the file the questions refer to, new or known: the questions are written only if all are there. */
  requiredAssets?: string[];
  result: ImportJobResult;
}

export function importBatch(db: Database, write: ImportWrite): D1PreparedStatement[] {
  const { jobId, token, now, rows } = write;
  const statements: D1PreparedStatement[] = [
    statement(
      db,
      sql`UPDATE jobs SET status = 'succeeded', chunk_token = ${token}, done = ${write.result.items_total},
            total = ${write.result.items_total}, result = ${JSON.stringify(write.result)}, finished_at = ${now}, updated_at = ${now}
          WHERE id = ${jobId} AND status IN ('queued', 'running')`,
    ),
  ];
  if (rows.length === 0) return statements;
  if (write.newQuiz) statements.push(prepared(db, db.insert(quizzes).values(write.newQuiz)));
  const fresh = write.assets ?? [];
  // The new assets, in one statement whatever their number. One whose bytes another upload made an
  // asset meanwhile is not inserted (the unique sha256), and a known one the cron swept is gone: then
  // the questions' guard below fails and the import is planned again from the assets as stored.
  if (fresh.length > 0)
    statements.push(
      statement(
        db,
        sql`INSERT INTO assets (id, sha256, media_type, bytes, width, height, created_at, touched_at)
            SELECT json_extract(a.value, '$.id'), json_extract(a.value, '$.sha256'), json_extract(a.value, '$.mediaType'),
              json_extract(a.value, '$.bytes'), json_extract(a.value, '$.width'), json_extract(a.value, '$.height'),
              json_extract(a.value, '$.createdAt'), json_extract(a.value, '$.touchedAt')
            FROM json_each(${JSON.stringify(fresh)}) AS a WHERE true
            ON CONFLICT DO NOTHING`,
      ),
    );
  const required = [...new Set([...fresh.map((a) => a.id), ...(write.requiredAssets ?? [])])];
  const assetsHold =
    required.length === 0
      ? sql`1`
      : sql`(SELECT count(*) FROM assets WHERE id IN (SELECT value FROM json_each(${JSON.stringify(required)}))) = ${required.length}`;
  const holds = sql`EXISTS (SELECT 1 FROM jobs WHERE id = ${jobId} AND chunk_token = ${token}) AND ${assetsHold}`;
  rows.forEach((row, i) => {
    const before = write.questionCount + i;
    const stored = sql`(SELECT count(*) FROM questions WHERE quiz_id = ${write.quizId})`;
    const position: SQL = sql`CASE WHEN ${holds} AND ${stored} = ${before} AND ${before} < ${MAX_QUESTIONS_PER_QUIZ}
      AND ${withinRowBudget(write.quizId, row.answerBytes)} THEN ${before + 1} END`;
    statements.push(prepared(db, db.insert(questions).values({ ...row, position })));
  });
  const ids = JSON.stringify(rows.map((row) => row.id));
  statements.push(prepared(db, snapshotVersions(db, sql`${questions.id} IN (SELECT value FROM json_each(${ids}))`)));
  // An id in an imported text that names no asset here stays as written, unrecorded.
  statements.push(...assetReferenceStatements(db, rows, { unknown: "skip" }));
  if (write.newQuiz) {
    // The event carries the quiz as POST /v1/quizzes would have answered it, question ids included.
    const created = { ...serializeQuiz(write.newQuiz, rows.length), question_ids: rows.map((row) => row.id) };
    statements.push(eventStatement(db, { type: "quiz.created", object: created }));
  } else {
    statements.push(
      prepared(
        db,
        db
          .update(quizzes)
          .set({ updatedAt: sql`max(${now}, strftime('%Y-%m-%dT%H:%M:%fZ', ${quizzes.updatedAt}, '+0.001 seconds'))` })
          .where(sql`${quizzes.id} = ${write.quizId}`),
      ),
    );
  }
  for (const row of rows) statements.push(eventStatement(db, { type: "question.created", object: questionEventObject(row) }));
  return statements;
}
