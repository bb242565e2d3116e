import { eq } from "drizzle-orm";
import type { WakeUps } from "../../db/after-commit";
import { jobs, questions, quizzes } from "../../db/schema";
import type { Database } from "../../env";
import type { RegradeParams } from "../../grading/regrade";
import { serializeJob } from "../../jobs/jobs";
import { notFound, validationFailed } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";

/** A regrade job for the quiz, queued: 404 for an unknown quiz, 400 naming a listed id that is not one of its questions. */
export async function startRegrade(db: Database, wakeUps: WakeUps, quizId: string, params: RegradeParams) {
  const [found, current] = await db.batch([
    db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.id, quizId)),
    db.select({ id: questions.id }).from(questions).where(eq(questions.quizId, quizId)),
  ]);
  if (found.length === 0) throw notFound("Quiz");
  const ids = new Set(current.map((q) => q.id));
  const unknown = (params.question_ids ?? []).flatMap((id, i) =>
    ids.has(id) ? [] : [{ path: `question_ids[${i}]`, message: "Not a question of this quiz." }],
  );
  if (unknown.length > 0) throw validationFailed(unknown);
  const now = isoNow();
  const [row] = await db
    .insert(jobs)
    .values({
      id: newId("job"),
      type: "regrade",
      status: "queued",
      scope: "quizzes:write",
      quizId,
      params: { ...params },
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error("the job was not stored");
  wakeUps.add({ kind: "job", id: row.id });
  return serializeJob(row);
}
