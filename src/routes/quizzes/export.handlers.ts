import { asc, eq } from "drizzle-orm";
import { serializeQuestion } from "../../authoring/question-rows";
import { questions, quizzes } from "../../db/schema";
import { fileSlug, type QuizQuestion, exportQuiz as writeFile } from "../../interchange";
import { notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/openapi";
import type * as routes from "./export.routes";
import { exportAssets } from "./export.service";

/** GET /v1/quizzes/{id}/export: the quiz and its questions (keys included) read in one round trip, written in the format. */
export const exportQuiz: AppRouteHandler<typeof routes.exportQuiz> = async (c) => {
  const { id } = c.req.valid("param");
  const { format } = c.req.valid("query");
  const db = c.var.db;
  const [quiz, rows] = await db.batch([
    db.select({ title: quizzes.title, description: quizzes.description }).from(quizzes).where(eq(quizzes.id, id)),
    db.select().from(questions).where(eq(questions.quizId, id)).orderBy(asc(questions.position)),
  ]);
  const found = quiz[0];
  if (!found) throw notFound("Quiz");
  const list = rows.map((row) => serializeQuestion(row, true) as QuizQuestion);
  // The images the html questions show, for the file to carry (QTI's files, Moodle's base64) or name by URL (GIFT).
  const assets = await exportAssets(c.env, db, list);
  const file = writeFile(format, found, list, { assets, origin: new URL(c.req.url).origin });
  // Bytes either way: a text format's body is UTF-8, as its media type says.
  const body = typeof file.body === "string" ? new TextEncoder().encode(file.body) : file.body;
  return c.body(body as Uint8Array<ArrayBuffer>, 200, {
    "content-type": file.contentType,
    "content-disposition": `attachment; filename="${fileSlug(found.title)}.${file.extension}"`,
    ...(file.skipped.length > 0 ? { "export-skipped": file.skipped.join(",") } : {}),
  });
};
