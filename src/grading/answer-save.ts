import { and, eq, sql } from "drizzle-orm";
import { questions, submissions } from "../db/schema";
import { statement } from "../db/statements";
import { responseProblem, type StoredAnswer } from "../domain/answers";
import { gradableQuestion } from "../domain/questions";
import type { Database } from "../env";
import { ApiError, conflict, notFound, validationFailed } from "../lib/errors";
import { isoNow } from "../lib/time";

const gradedConflict = () => new ApiError("submission_graded", "The submission is graded; its answers are final.");
const deadlinePassed = () => conflict("deadline_passed", "The submission's deadline has passed; its answers are final.");
const notPresented = () => validationFailed([{ path: "question_id", message: "Not a question this submission presents." }]);

/** The stored answer of one question, as a one-answer save answers it. */
export interface SavedAnswer {
  question_id: string;
  response: unknown;
  seq: number;
  saved_at: string;
  stale: boolean;
}

/** The question's place in the answers array (null: not answered yet), inside a statement on `submissions`. */
const entryIndex = (questionId: string) =>
  sql`(SELECT key FROM json_each(submissions.answers) WHERE json_extract(value, '$.question_id') = ${questionId} LIMIT 1)`;
/** The question's stored seq: its answer's, else the base seq (that of every question not answered). */
const storedSeq = (questionId: string) =>
  sql`coalesce((SELECT json_extract(value, '$.seq') FROM json_each(submissions.answers)
    WHERE json_extract(value, '$.question_id') = ${questionId} LIMIT 1), submissions.answers_base_seq)`;

/**
 * Saves one answer, order-safe: the stored answer of a question is the one with the highest seq.
 * The save is the other half of the grade's claim (grade.ts): what is graded is what was stored.
 *
 * One read (`checkSave`: a batch of two selects, the submission's state and whether it presents
 * the question, and the question, whose type checks the response), then one write round trip
 * (`writeSave`): a single conditional UPDATE that writes only while the submission is open,
 * before its deadline, and when the seq is higher than the stored one, followed in the same batch
 * by a read of what is stored. The UPDATE also moves the answers revision, so a grade that read
 * the answers before it misses its claim and grades again with this answer; a save after the
 * claim finds the submission closed and is refused (409). So a save answered 200 is graded, and
 * one refused is not.
 */
export async function saveAnswer(db: Database, id: string, questionId: string, input: { response: unknown; seq: number }) {
  await checkSave(db, id, questionId, input);
  return writeSave(db, id, questionId, input);
}

/** 404, 409 or 400 for a save that cannot land: the submission, its state and deadline, the question, the response. */
export async function checkSave(db: Database, id: string, questionId: string, input: { response: unknown }) {
  const [subRows, questionRows] = await db.batch([
    db
      .select({
        status: submissions.status,
        deadlineAt: submissions.deadlineAt,
        presents: sql<number>`${submissions.presented} IS NULL OR EXISTS (SELECT 1 FROM json_each(${submissions.presented})
          WHERE json_extract(value, '$.question_id') = ${questionId})`.mapWith(Number),
      })
      .from(submissions)
      .where(eq(submissions.id, id)),
    db
      .select()
      .from(questions)
      .where(
        and(
          eq(questions.id, questionId),
          eq(questions.quizId, sql`(SELECT quiz_id FROM ${submissions} WHERE ${submissions.id} = ${id})`),
        ),
      ),
  ]);
  const current = subRows[0];
  if (!current) throw notFound("Submission");
  if (current.status !== "open") throw gradedConflict();
  if (current.deadlineAt !== null && isoNow() >= current.deadlineAt) throw deadlinePassed();
  const question = questionRows[0];
  if (!question || current.presents !== 1) throw notPresented();
  if (input.response !== null) {
    const gradable = gradableQuestion(question);
    const problem = responseProblem(gradable, input.response);
    if (problem) throw validationFailed([{ path: "response", message: `A ${gradable.type} response ${problem}.` }]);
  }
}

/**
 * The one conditional write of a checked save, and what is stored after it, in one batch: the
 * answer lands only while the submission is open, before its deadline and above the stored seq.
 */
export async function writeSave(
  db: Database,
  id: string,
  questionId: string,
  input: { response: unknown; seq: number },
): Promise<SavedAnswer> {
  const now = isoNow();
  const [write, after] = await db.$client.batch<Record<string, unknown>>(saveStatements(db, id, questionId, input, now));
  if (write?.meta.changes === 1)
    return { question_id: questionId, response: input.response, seq: input.seq, saved_at: now, stale: false };
  const stored = after?.results[0];
  if (!stored) throw notFound("Submission");
  if (stored.status !== "open") throw gradedConflict();
  if (typeof stored.deadline_at === "string" && now >= stored.deadline_at) throw deadlinePassed();
  return { ...storedAnswer(questionId, stored), stale: true };
}

/** The save's batch: the one conditional UPDATE, then the read of what is stored (the bench runs the UPDATE alone). */
export function saveStatements(
  db: Database,
  id: string,
  questionId: string,
  input: { response: unknown; seq: number },
  now: string,
): [D1PreparedStatement, D1PreparedStatement] {
  const entry: StoredAnswer = { question_id: questionId, response: input.response, seq: input.seq, saved_at: now };
  const json = JSON.stringify(entry);
  const index = entryIndex(questionId);
  return [
    statement(
      db,
      sql`UPDATE submissions SET
        answers = CASE WHEN ${index} IS NULL THEN json_insert(answers, '$[#]', json(${json}))
          ELSE json_set(answers, '$[' || ${index} || ']', json(${json})) END,
        answers_revision = answers_revision + 1,
        updated_at = ${now}
      WHERE id = ${id} AND status = 'open' AND (deadline_at IS NULL OR deadline_at > ${now})
        AND ${input.seq} > ${storedSeq(questionId)}`,
    ),
    statement(
      db,
      sql`SELECT status, deadline_at, answers_base_seq,
        (SELECT value FROM json_each(submissions.answers) WHERE json_extract(value, '$.question_id') = ${questionId} LIMIT 1) AS answer
      FROM submissions WHERE id = ${id}`,
    ),
  ];
}

/** The stored answer read back: the question's entry, else (never answered, or reset by a whole write) none at the base seq. */
function storedAnswer(questionId: string, row: Record<string, unknown>): Omit<SavedAnswer, "stale"> {
  const base = Number(row.answers_base_seq);
  if (typeof row.answer !== "string") {
    return { question_id: questionId, response: null, seq: base, saved_at: new Date(base).toISOString() };
  }
  const answer = JSON.parse(row.answer) as StoredAnswer;
  return {
    question_id: questionId,
    response: answer.response,
    seq: answer.seq ?? base,
    saved_at: answer.saved_at ?? new Date(base).toISOString(),
  };
}
