import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { WakeUps } from "../../../src/db/after-commit";
import { jobs } from "../../../src/db/schema";
import type { Database } from "../../../src/env";
import { runImportJob } from "../../../src/imports/run";
import type { ImportParams } from "../../../src/imports/start";
import { storeUpload, sweepUploads, uploadKey } from "../../../src/imports/uploads";
import { newId } from "../../../src/lib/ids";
import { isoNow } from "../../../src/lib/time";
import { bytes } from "../../interchange/fixtures";
import { call, type Schema } from "../../support/call";
import { finished, questionsOf } from "./helpers";

/**
 * How an import job survives its delivery: run twice, or several times at once, it writes its
 * questions once; a quiz deleted before it runs fails it (not_found); a job given up by the
 * dead-letter queue fails with internal_error; its file is deleted in every case, and the cron
 * deletes files no running job will read.
 */

const db = drizzle(env.DB) as Database;
const GIFT = "::A:: One. {T}\n\n::B:: Two. {F}\n\n::C:: Three. {T}";

/** A queued import job and its file, as POST /v1/imports leaves them, but not handed to the queue. */
async function queuedJob(quizId?: string) {
  const id = newId("job");
  const file = bytes(GIFT);
  await storeUpload(env, id, file, "text/plain");
  const params: ImportParams = { format: "gift", media_type: "text/plain", title: null, new_quiz: !quizId, bytes: file.length };
  const now = isoNow();
  await db.insert(jobs).values({
    id,
    type: "import",
    status: "queued",
    scope: "quizzes:write",
    quizId: quizId ?? newId("quiz"),
    params: { ...params },
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** One delivery of the job's message, as the consumer makes it: the job's row read, then run. */
const deliver = async (id: string) => {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return runImportJob(env, db, new WakeUps(), row!);
};
const stored = async (jobId: string) => (await env.UPLOADS.head(uploadKey(jobId))) !== null;
/** An import job, as GET /v1/jobs/{id} shows it. */
const job = async (id: string) => (await call(`/v1/jobs/${id}`)).json as Schema<"ImportJob">;

describe("an import job's deliveries", () => {
  it("run several times at once, and again afterwards, it writes the quiz and its questions once", async () => {
    const id = await queuedJob();
    await Promise.all([deliver(id), deliver(id), deliver(id)]);
    await deliver(id);
    const done = await job(id);
    expect(done.status).toBe("succeeded");
    expect((await questionsOf(done.quiz_id)).map((q) => q.title)).toEqual(["A", "B", "C"]);
    expect(await stored(id)).toBe(false);
  });

  it("appending, concurrent deliveries add the questions once", async () => {
    const quiz = await call("/v1/quizzes", {
      body: { title: "Twice", questions: [{ type: "true_false", prompt: "0", correct: true }] },
    });
    const id = await queuedJob(quiz.json.id);
    await Promise.all([deliver(id), deliver(id)]);
    const titles = (await questionsOf(quiz.json.id)).map((q) => q.title);
    expect(titles).toEqual([null, "A", "B", "C"]);
  });

  it("a quiz deleted before the job runs: failed with not_found, nothing written, file deleted", async () => {
    const quiz = await call("/v1/quizzes", { body: { title: "Gone" } });
    const id = await queuedJob(quiz.json.id);
    expect((await call(`/v1/quizzes/${quiz.json.id}`, { method: "DELETE" })).status).toBe(204);
    await deliver(id);
    expect(await job(id)).toMatchObject({ status: "failed", result: null, error: { code: "not_found" } });
    expect(await stored(id)).toBe(false);
  });

  it("a job the dead-letter queue receives: failed with internal_error, file deleted", async () => {
    const id = await queuedJob();
    await env.EVENTS_DLQ.send({ kind: "job", job_id: id }, { contentType: "json" });
    const failed = await finished(id);
    expect(failed).toMatchObject({
      status: "failed",
      error: { code: "internal_error", detail: "A step of the job failed on every retry." },
    });
    expect(await stored(id)).toBe(false);
  });

  it("a job whose file is gone: failed with internal_error", async () => {
    const id = await queuedJob();
    await env.UPLOADS.delete(uploadKey(id));
    await deliver(id);
    expect((await job(id)).error!.code).toBe("internal_error");
  });
});

describe("the cron's sweep of uploads", () => {
  it("deletes files of ended jobs and, after an hour, files without a job; keeps queued jobs' files", async () => {
    const queued = await queuedJob();
    const ended = await queuedJob();
    await deliver(ended);
    await env.UPLOADS.put(uploadKey(ended), "left behind");
    const orphan = newId("job");
    await env.UPLOADS.put(uploadKey(orphan), "no job");
    await sweepUploads(env, db);
    expect([await stored(queued), await stored(ended), await stored(orphan)]).toEqual([true, false, true]);
    await sweepUploads(env, db, Date.now() + 2 * 3600_000);
    expect([await stored(queued), await stored(orphan)]).toEqual([true, false]);
    await deliver(queued);
    expect(await stored(queued)).toBe(false);
  });
});
