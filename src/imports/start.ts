import { eq } from "drizzle-orm";
import type { WakeUps } from "../db/after-commit";
import { jobs, quizzes } from "../db/schema";
import type { Database } from "../env";
import type { ImportFormat } from "../interchange";
import { InterchangeError, recogniseFormat } from "../interchange";
import { ApiError, notFound, validationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { deleteUpload, storeUpload } from "./uploads";

/** What POST /v1/imports hands over: the file, as sent, and the query. */
export interface ImportRequest {
  bytes: Uint8Array;
  mediaType: string;
  format?: ImportFormat;
  quizId?: string;
  title?: string;
  /** The service's origin as the request reached it: a GIFT text may name one of its assets by absolute URL. */
  origin?: string;
}

/** What the job keeps as its params. The job's quiz_id is the quiz appended to, or the id reserved for the new one. */
export interface ImportParams {
  format: ImportFormat;
  media_type: string;
  /** A new quiz's title as the request named it; null: the file's, else a default. */
  title: string | null;
  new_quiz: boolean;
  bytes: number;
  /** The service's origin when the file was sent (absent on jobs from before it was kept). */
  origin?: string;
}

/**
 * Accepts an upload: the format given or recognised from the bytes (else 400 unknown_format),
 * the quiz to append to checked (404), the file stored in R2 and the job queued. The file is read
 * only by the job: its refusals (unreadable_file, unsafe_xml, unsafe_package) fail the job.
 */
export async function startImport(env: Env, db: Database, wakeUps: WakeUps, request: ImportRequest) {
  if (request.bytes.length === 0)
    throw validationFailed([{ path: "body", message: "The body is empty: send the file as the body." }]);
  let format = request.format;
  if (format === undefined) {
    try {
      format = recogniseFormat(request.bytes, request.mediaType);
    } catch (error) {
      if (error instanceof InterchangeError) throw new ApiError("unknown_format", error.detail);
      throw error;
    }
  }
  if (request.quizId !== undefined) {
    const [quiz] = await db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.id, request.quizId));
    if (!quiz) throw notFound("Quiz");
  }
  const id = newId("job");
  const params: ImportParams = {
    format,
    media_type: request.mediaType,
    title: request.title ?? null,
    new_quiz: request.quizId === undefined,
    bytes: request.bytes.length,
    ...(request.origin ? { origin: request.origin } : {}),
  };
  // The file first: a job never exists without its file; a file without a job is swept after an hour.
  await storeUpload(env, id, request.bytes, request.mediaType);
  const now = isoNow();
  let row: typeof jobs.$inferSelect | undefined;
  try {
    [row] = await db
      .insert(jobs)
      .values({
        id,
        type: "import",
        status: "queued",
        scope: "quizzes:write",
        quizId: request.quizId ?? newId("quiz"),
        params: { ...params },
        createdAt: now,
        updatedAt: now,
      })
      .returning();
  } catch (error) {
    await deleteUpload(env, id);
    throw error;
  }
  if (!row) throw new Error("the job was not stored");
  wakeUps.add({ kind: "job", id: row.id });
  return row;
}
