import { and, asc, eq, gt } from "drizzle-orm";
import { jobChanges, jobs } from "../../db/schema";
import type { Credential, Database } from "../../env";
import { type JobRow, serializeJob } from "../../jobs/jobs";
import { notFound } from "../../lib/errors";
import { hasScope, type Scope } from "../../lib/scopes";

/** A job, to a credential holding the scope that started it; to any other, 404 as if it did not exist. */
async function visibleJob(db: Database, id: string, credential: Credential): Promise<JobRow> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  if (!row || !hasScope(credential.scopes, row.scope as Scope)) throw notFound("Job");
  return row;
}

export async function getJob(db: Database, id: string, credential: Credential) {
  return serializeJob(await visibleJob(db, id, credential));
}

/** A regrade's changes by submission id, one page; 404 as for the job. */
export async function listJobChanges(db: Database, id: string, credential: Credential, after: string | undefined, limit: number) {
  await visibleJob(db, id, credential);
  const rows = await db
    .select()
    .from(jobChanges)
    .where(and(eq(jobChanges.jobId, id), after === undefined ? undefined : gt(jobChanges.submissionId, after)))
    .orderBy(asc(jobChanges.submissionId))
    .limit(limit + 1);
  return rows.map((r) => ({
    submission_id: r.submissionId,
    user_id: r.userId,
    score_before: r.scoreBefore,
    score_after: r.scoreAfter,
  }));
}
