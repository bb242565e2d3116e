import { and, asc, eq, gt, gte, ne, type SQL, sql } from "drizzle-orm";
import { assetReferenceStatements, refuseUnknownAssets, unknownAssetFailure } from "../../authoring/asset-references";
import { MAX_QUESTIONS_PER_QUIZ, QuestionInput } from "../../authoring/question.schemas";
import { type StoredQuestionInput, storedQuestions } from "../../authoring/question-content";
import {
  type QuestionRow,
  questionEventObject,
  questionRow,
  rowBudgetExceeded,
  snapshotVersions,
  withinRowBudget,
} from "../../authoring/question-rows";
import { commit, type WakeUps } from "../../db/after-commit";
import { concurrentUpdate, updatedAfter, WRITE_ATTEMPTS } from "../../db/optimistic";
import { eventStatement } from "../../db/outbox";
import { questions, quizzes } from "../../db/schema";
import { prepared, statement } from "../../db/statements";
import { previousAttributes } from "../../domain/events";
import { mergeQuestionPatch } from "../../domain/question-patch";
import { gradedDefinition } from "../../domain/questions";
import type { Database } from "../../env";
import { conflict, errorChainText, notFound, validationFailed } from "../../lib/errors";
import { isoNow } from "../../lib/time";
import { fieldErrors } from "../../lib/validation";

export { serializeQuestion } from "../../authoring/question-rows";

async function requireQuiz(db: Database, quizId: string) {
  const [quiz] = await db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.id, quizId));
  if (!quiz) throw notFound("Quiz");
}

/** A page of the quiz's questions by position; with `tag`, those carrying it (a quiz holds at most 200, so the filter stays cheap). */
export async function listQuestions(
  db: Database,
  quizId: string,
  afterPosition: number | undefined,
  limit: number,
  tag?: string,
) {
  const rows = await db
    .select()
    .from(questions)
    .where(
      and(
        eq(questions.quizId, quizId),
        afterPosition === undefined ? undefined : gt(questions.position, afterPosition),
        tag === undefined ? undefined : sql`EXISTS (SELECT 1 FROM json_each(${questions.tags}) WHERE value = ${tag})`,
      ),
    )
    .orderBy(asc(questions.position))
    .limit(limit + 1);
  if (rows.length === 0) await requireQuiz(db, quizId);
  return rows;
}

export async function getQuestion(db: Database, quizId: string, questionId: string) {
  const [row] = await db
    .select()
    .from(questions)
    .where(and(eq(questions.id, questionId), eq(questions.quizId, quizId)));
  if (!row) throw notFound("Question");
  return row;
}

/*
 * Positions must never collide, leave gaps or pass the limit under concurrent requests. An
 * addition computes its position (and the limit) in SQL, from what is stored when its batch runs.
 * A change or deletion uses the position it read, and its batch writes only while the question
 * (and, for a move, the number of questions) is still as read: its event then names positions
 * exactly; otherwise it reads again.
 */
const questionTotal = (quizId: string) => sql<number>`(SELECT count(*) FROM questions AS q WHERE q.quiz_id = ${quizId})`;
const limitReached = () => conflict("question_limit_reached", `A quiz holds at most ${MAX_QUESTIONS_PER_QUIZ} questions.`);

/** Marks the quiz changed, always after its last updated_at, so that a quiz PATCH racing this sees it. */
const touchQuiz = (db: Database, quizId: string, now: string) =>
  db
    .update(quizzes)
    .set({ updatedAt: sql`max(${now}, strftime('%Y-%m-%dT%H:%M:%fZ', ${quizzes.updatedAt}, '+0.001 seconds'))` })
    .where(eq(quizzes.id, quizId));

/**
 * The position SQL gave a new question, written into the question.created event just inserted
 * for it (the batch's last insert), since that position is known only when the batch runs.
 */
const positionIntoEvent = (db: Database, questionId: string) =>
  statement(
    db,
    sql`UPDATE events SET data = json_set(data, '$.object.position', (SELECT position FROM questions WHERE id = ${questionId}))
        WHERE rowid = last_insert_rowid() AND json_extract(data, '$.object.id') = ${questionId}`,
  );

/** Adds a question at `position` (default: last); the questions at and after it move down one. */
export async function createQuestion(
  db: Database,
  wakeUps: WakeUps,
  quizId: string,
  input: QuestionInput & { position?: number },
  origin?: string,
) {
  await requireQuiz(db, quizId);
  // The position is where the question goes, not part of it: the stored question is re-read without it.
  const { position: _position, ...question } = input;
  const [stored] = await storedQuestions([question], origin);
  const now = isoNow();
  const row = questionRow(quizId, stored as StoredQuestionInput, 0, now);
  await refuseUnknownAssets(db, [row], () => "");
  const total = questionTotal(quizId);
  // NULL when the quiz is full: the NOT NULL constraint then fails the batch, which rolls back whole.
  // Also NULL when its answers could overflow a submission's row: told apart after the failure.
  const fits = withinRowBudget(quizId, row.answerBytes);
  const position = sql<number>`CASE WHEN ${total} < ${MAX_QUESTIONS_PER_QUIZ} AND ${fits} THEN min(${input.position ?? MAX_QUESTIONS_PER_QUIZ + 1}, ${total} + 1) END`;
  const statements: D1PreparedStatement[] = [];
  if (input.position !== undefined)
    statements.push(
      prepared(
        db,
        db
          .update(questions)
          .set({ position: sql`${questions.position} + 1` })
          .where(and(eq(questions.quizId, quizId), gte(questions.position, input.position))),
      ),
    );
  const insertAt = statements.length;
  statements.push(
    prepared(
      db,
      db
        .insert(questions)
        .values({ ...row, position })
        .returning({ position: questions.position }),
    ),
    eventStatement(db, { type: "question.created", object: questionEventObject(row) }, "after-change"),
    positionIntoEvent(db, row.id),
    prepared(db, snapshotVersions(db, eq(questions.id, row.id))),
    prepared(db, touchQuiz(db, quizId, now)),
    ...assetReferenceStatements(db, [row], { unknown: "refuse" }),
  );
  let results: D1Result<{ position: number }>[];
  try {
    results = await commit<{ position: number }>(db, wakeUps, statements);
  } catch (error) {
    const gone = unknownAssetFailure(error);
    if (gone) throw gone;
    const text = errorChainText(error);
    if (text.includes("NOT NULL constraint failed: questions.position")) {
      const [room] = await db.all<{ fits: number }>(sql`SELECT ${fits} AS fits`);
      throw room?.fits ? limitReached() : rowBudgetExceeded("");
    }
    if (text.includes("FOREIGN KEY")) throw notFound("Quiz"); // deleted since requireQuiz
    throw error;
  }
  const inserted = results[insertAt]?.results[0];
  if (!inserted) throw limitReached();
  return { ...row, position: inserted.position };
}

/** The question and the number of questions of its quiz, as read. */
async function readQuestion(db: Database, quizId: string, questionId: string) {
  const [row] = await db
    .select({ question: questions, total: questionTotal(quizId).mapWith(Number) })
    .from(questions)
    .where(and(eq(questions.id, questionId), eq(questions.quizId, quizId)));
  if (!row) throw notFound("Question");
  return row;
}

/**
 * Where a question may leave its pool (be deleted, or moved to another): the pool keeps at least
 * the `pick` the quiz's settings.pools ask of it.
 */
const poolKeepsPick = (quizId: string, pool: string): SQL =>
  sql`NOT EXISTS (SELECT 1 FROM quizzes, json_each(quizzes.settings, '$.pools') AS p
        WHERE quizzes.id = ${quizId} AND json_extract(p.value, '$.pool') = ${pool}
          AND (SELECT count(*) FROM questions WHERE quiz_id = ${quizId} AND pool = ${pool}) <= json_extract(p.value, '$.pick'))`;

/** 409 when the question's leaving would leave its pool smaller than its pick; else the guard that keeps it so. */
async function leavingPool(db: Database, read: QuestionRow, nextPool: string | null | undefined): Promise<SQL | undefined> {
  if (read.pool === null || nextPool === read.pool) return undefined;
  const guard = poolKeepsPick(read.quizId, read.pool);
  const [row] = await db.all<{ ok: number }>(sql`SELECT ${guard} AS ok`);
  if (!row?.ok)
    throw conflict(
      "pool_too_small",
      `Pool "${read.pool}" would hold fewer questions than the quiz's settings.pools pick from it.`,
    );
  return guard;
}

/**
 * Where the question is still as read: same updated_at, and same position (other questions'
 * additions, moves and deletions shift it without touching its updated_at).
 */
const unchangedSince = (read: QuestionRow): SQL =>
  sql`EXISTS (SELECT 1 FROM questions AS q WHERE q.id = ${read.id} AND q.updated_at = ${read.updatedAt} AND q.position = ${read.position})`;

/**
 * The question after a change: the validated input's fields over the row read, at `position`. A
 * change to what grading reads (type, points, key, options, scoring) makes a new version; its
 * title, tags, feedback, explanation and option feedback do not.
 */
function changedQuestion(read: QuestionRow, input: StoredQuestionInput, position: number): QuestionRow {
  const { id: _id, createdAt: _c, position: _p, version: _v, updatedAt: _u, ...fresh } = questionRow(read.quizId, input, 0, "");
  const regrades =
    fresh.type !== read.type ||
    fresh.points !== read.points ||
    JSON.stringify(gradedDefinition(fresh.definition)) !== JSON.stringify(gradedDefinition(read.definition));
  // After the updated_at read, so that the row never shows one updated_at twice (see unchangedSince).
  const updatedAt = updatedAfter(read.updatedAt);
  return { ...read, ...fresh, position, version: read.version + (regrades ? 1 : 0), updatedAt };
}

/**
 * Applies a patch, with its question.updated event. The question is read, the result computed
 * and validated, and the write (with its event) made only while the question and, for a move,
 * the number of questions are still as read; otherwise it is read again.
 */
export async function updateQuestion(
  db: Database,
  wakeUps: WakeUps,
  quizId: string,
  questionId: string,
  patch: Record<string, unknown> & { position?: number },
  origin?: string,
) {
  const { position: requested, ...fields } = patch;
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const { question: read, total } = await readQuestion(db, quizId, questionId);
    const parsed = QuestionInput.safeParse(mergeQuestionPatch(read, fields));
    if (!parsed.success) throw validationFailed(fieldErrors(parsed.error));
    const [stored] = await storedQuestions([parsed.data], origin);
    const next = changedQuestion(
      read,
      stored as StoredQuestionInput,
      requested === undefined ? read.position : Math.min(requested, total),
    );
    await refuseUnknownAssets(db, [next], () => "");
    const keepsPool = await leavingPool(db, read, next.pool);
    const fits = withinRowBudget(quizId, next.answerBytes, read.id);
    if (next.answerBytes > read.answerBytes) {
      const [room] = await db.all<{ fits: number }>(sql`SELECT ${fits} AS fits`);
      if (!room?.fits) throw rowBudgetExceeded("");
    }
    const unchanged =
      requested === undefined
        ? sql`${unchangedSince(read)} AND ${fits}`
        : sql`${unchangedSince(read)} AND ${fits} AND ${questionTotal(quizId)} = ${total}`;
    const guard = keepsPool === undefined ? unchanged : sql`${unchanged} AND ${keepsPool}`;
    const [from, to] = [read.position, next.position];
    const statements: D1PreparedStatement[] = [];
    if (from !== to)
      // Close the gap the question leaves and open one where it goes, before it is written there.
      statements.push(
        prepared(
          db,
          db
            .update(questions)
            .set({
              position: sql`${questions.position} + CASE
                WHEN ${questions.position} >= ${to} AND ${questions.position} < ${from} THEN 1
                WHEN ${questions.position} > ${from} AND ${questions.position} <= ${to} THEN -1
                ELSE 0 END`,
            })
            .where(and(eq(questions.quizId, quizId), ne(questions.id, read.id), guard)),
        ),
      );
    const { id: _id, quizId: _quizId, createdAt: _createdAt, ...changes } = next;
    // Before the update, under its guard: the references change exactly when the question does.
    statements.push(...assetReferenceStatements(db, [next], { replace: true, unknown: "refuse", when: guard }));
    const writeAt = statements.length;
    const [before, after] = [questionEventObject(read), questionEventObject(next)];
    statements.push(
      prepared(
        db,
        db
          .update(questions)
          .set(changes)
          .where(and(eq(questions.id, read.id), guard)),
      ),
      eventStatement(
        db,
        { type: "question.updated", object: after, previous: previousAttributes(before, after) },
        "after-change",
      ),
      prepared(db, snapshotVersions(db, eq(questions.id, read.id))),
      prepared(db, touchQuiz(db, quizId, next.updatedAt)),
    );
    const results = await commit(db, wakeUps, statements).catch((error: unknown) => {
      throw unknownAssetFailure(error) ?? error;
    });
    if (results[writeAt]?.meta.changes === 1) return next;
  }
  throw concurrentUpdate("The quiz's questions");
}

/** Deletes the question as read, with its question.deleted event; the questions after it move up one. */
export async function deleteQuestion(db: Database, wakeUps: WakeUps, quizId: string, questionId: string) {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const read = await getQuestion(db, quizId, questionId);
    const keepsPool = await leavingPool(db, read, null);
    const guard = keepsPool === undefined ? unchangedSince(read) : sql`${unchangedSince(read)} AND ${keepsPool}`;
    const [, deleted] = await commit(db, wakeUps, [
      prepared(
        db,
        db
          .update(questions)
          .set({ position: sql`${questions.position} - 1` })
          .where(and(eq(questions.quizId, quizId), gt(questions.position, read.position), guard)),
      ),
      prepared(db, db.delete(questions).where(and(eq(questions.id, read.id), guard))),
      eventStatement(db, { type: "question.deleted", object: questionEventObject(read) }, "after-change"),
      prepared(db, touchQuiz(db, quizId, isoNow())),
    ]);
    // More than 1 where D1 counts the trigger's update of the quiz's question_count too.
    if ((deleted?.meta.changes ?? 0) > 0) return;
  }
  throw concurrentUpdate("The quiz's questions");
}
