import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { jobs } from "../../src/db/schema";
import type { Database } from "../../src/env";
import type { ImportParams } from "../../src/imports/start";
import { storeUpload } from "../../src/imports/uploads";
import worker from "../../src/index";
import { newId } from "../../src/lib/ids";
import { isoNow } from "../../src/lib/time";
import { countingEnv } from "../support/binding-counter";

/**
 * What one delivery of an import job's message costs the job's row: the consumer reads it once
 * and hands it to the import (src/worker/queue.ts, src/imports/run.ts), which marks it running and
 * writes it succeeded in its one batch, without reading it again.
 */

const db = drizzle(env.DB) as Database;

/** A queued import job and its file, as POST /v1/imports leaves them. */
async function queuedImport() {
  const id = newId("job");
  const file = new TextEncoder().encode("::A:: One. {T}\n\n::B:: Two. {F}");
  await storeUpload(env, id, file, "text/plain");
  const params: ImportParams = { format: "gift", media_type: "text/plain", title: null, new_quiz: true, bytes: file.length };
  const now = isoNow();
  await db.insert(jobs).values({
    id,
    type: "import",
    status: "queued",
    scope: "quizzes:write",
    quizId: newId("quiz"),
    params: { ...params },
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

describe("an import job's delivery", () => {
  it("reads the job's row once, and writes its quiz", async () => {
    const id = await queuedImport();
    const counted = countingEnv(env);
    const batch = createMessageBatch("quiz-api-jobs", [
      { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { kind: "job", job_id: id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, counted.env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual([batch.messages[0]?.id]);
    const rowReads = counted.log.filter((c) => c.kind === "d1" && /^select\b/i.test(c.detail) && /\bfrom "jobs"/i.test(c.detail));
    expect(rowReads, JSON.stringify(counted.log.map((c) => c.detail))).toHaveLength(1);
    const [job] = await db.select({ status: jobs.status, result: jobs.result }).from(jobs).where(eq(jobs.id, id));
    expect(job).toMatchObject({ status: "succeeded", result: { format: "gift", imported: 2 } });
  });
});
