import type { z } from "@hono/zod-openapi";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { AssetRow } from "../../authoring/assets";
import { assetReferences, assets } from "../../db/assets-schema";
import { questions, quizzes } from "../../db/schema";
import { assetPath } from "../../domain/asset-url";
import type { Database } from "../../env";
import { notFound } from "../../lib/errors";
import type { Asset } from "./assets.schemas";

export { readAsset, storeAsset } from "../../authoring/assets";

export const serializeAsset = (row: AssetRow): z.infer<typeof Asset> => ({
  id: row.id,
  url: assetPath(row.id),
  media_type: row.mediaType,
  bytes: row.bytes,
  width: row.width,
  height: row.height,
  sha256: row.sha256,
  created_at: row.createdAt,
});
/** A page of the assets the quiz's questions refer to, by id; 404 for an unknown quiz. */
export async function listQuizAssets(db: Database, quizId: string, after: string | undefined, limit: number) {
  // From the quiz's questions (their quiz_id index) to their references (the question_id index), each asset once.
  const referred = sql`${assets.id} IN (SELECT ${assetReferences.assetId} FROM ${questions}
    JOIN ${assetReferences} ON ${assetReferences.questionId} = ${questions.id} WHERE ${questions.quizId} = ${quizId})`;
  const [quiz, rows] = await db.batch([
    db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.id, quizId)),
    db
      .select()
      .from(assets)
      .where(and(referred, after === undefined ? undefined : gt(assets.id, after)))
      .orderBy(asc(assets.id))
      .limit(limit + 1),
  ]);
  if (quiz.length === 0) throw notFound("Quiz");
  return rows;
}
