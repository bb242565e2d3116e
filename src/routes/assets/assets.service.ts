import type { z } from "@hono/zod-openapi";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { assetReferences, assets } from "../../db/assets-schema";
import { questions, quizzes } from "../../db/schema";
import { assetObjectKey, assetPath, generateAssetId } from "../../domain/asset-url";
import { type ImageMediaType, readImage } from "../../domain/image-format";
import type { Database } from "../../env";
import { ApiError, notFound, validationFailed } from "../../lib/errors";
import { isoNow } from "../../lib/time";
import type { Asset } from "./assets.schemas";

type AssetRow = typeof assets.$inferSelect;

/** An image's bytes in R2: once per distinct content, so the same bytes uploaded twice are stored once. */
const objectKey = assetObjectKey;

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

const hex = (digest: ArrayBuffer) => [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * Stores an upload: the bytes must be the format the Content-Type names (415 otherwise), with a
 * readable size (415 too: not an image of that format). Bytes already stored are the same
 * asset: `created` false, nothing written. The object goes to R2 first, under its hash, so a row
 * never names bytes that are not there; two uploads of the same bytes put the same object, and
 * the unique sha256 lets one row in, which both then read.
 */
export async function storeAsset(env: Env, db: Database, bytes: Uint8Array, claimed: ImageMediaType) {
  if (bytes.length === 0) throw validationFailed([{ path: "body", message: "The body is empty: send the image as the body." }]);
  const image = readImage(bytes, claimed);
  if ("kind" in image)
    throw new ApiError(
      "unsupported_media_type",
      image.kind === "not_that_format"
        ? `The bytes are not ${claimed}: send the image with the Content-Type of its format (PNG, JPEG, GIF or WebP).`
        : `The bytes are not a readable ${claimed} image: ${image.detail}.`,
    );
  const sha256 = hex(await crypto.subtle.digest("SHA-256", bytes));
  const [existing] = await db.select().from(assets).where(eq(assets.sha256, sha256));
  if (existing) return { row: existing, created: false };
  await env.ASSETS_BUCKET.put(objectKey(sha256), bytes, {
    httpMetadata: { contentType: image.mediaType },
    sha256,
  });
  const row: AssetRow = {
    id: generateAssetId(),
    sha256,
    mediaType: image.mediaType,
    bytes: bytes.length,
    width: image.width,
    height: image.height,
    createdAt: isoNow(),
  };
  const [inserted, stored] = await db.batch([
    db.insert(assets).values(row).onConflictDoNothing({ target: assets.sha256 }).returning({ id: assets.id }),
    db.select().from(assets).where(eq(assets.sha256, sha256)),
  ]);
  const found = stored[0];
  if (!found) throw new Error("the asset was not stored");
  return { row: found, created: inserted.length === 1 };
}

/** The asset and its bytes, or null when either is missing (an unknown id). */
export async function readAsset(env: Env, db: Database, id: string) {
  const [row] = await db.select().from(assets).where(eq(assets.id, id));
  if (!row) return null;
  const object = await env.ASSETS_BUCKET.get(objectKey(row.sha256));
  return object ? { row, body: object.body } : null;
}

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
