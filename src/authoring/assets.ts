import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { assets } from "../db/assets-schema";
import { generateAssetId } from "../domain/asset-url";
import { type ImageMediaType, readImage } from "../domain/image-format";
import type { Database } from "../env";
import { ApiError, validationFailed } from "../lib/errors";
import { logger } from "../lib/log";
import { isoNow } from "../lib/time";

/**
 * Questions' images (docs/assets.md): the row in D1 (`assets`), the bytes in R2 (binding
 * ASSETS_BUCKET) under `assets/<id>`, and the cron's share: assets no question refers to, a day
 * after their last upload, go. An asset a question refers to is never removed.
 */

export type AssetRow = typeof assets.$inferSelect;

/** An asset's bytes in R2 (also written by an import, src/imports/assets.ts, and read by an export). */
export const objectKey = (id: string) => `assets/${id}`;

/** How long an asset no question refers to is kept after its last upload: time to write the question that uses it. */
const UNREFERENCED_KEPT_MS = 24 * 60 * 60_000;
/** Assets removed per cron run: one statement, one R2 delete call (at most 1 000 keys). */
const SWEEP_LIMIT = 100;

const hex = (digest: ArrayBuffer) => [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * Stores an upload: the bytes must be the format the Content-Type names (415 otherwise), with a
 * readable size (415 too: no image of that format). Bytes already stored are the same asset:
 * `created` false, its touched_at renewed (in the one statement that finds it, so the cron,
 * which removes only assets untouched for a day, either ran before — and the bytes are stored
 * anew — or leaves it a day more). New bytes go to R2 first, so a row never names bytes that are
 * not there; of two uploads of the same bytes at once, the unique sha256 lets one row in, and the
 * other answers that row and deletes its own object.
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
  const now = isoNow();
  const [again] = await db.update(assets).set({ touchedAt: now }).where(eq(assets.sha256, sha256)).returning();
  if (again) return { row: again, created: false };
  const row: AssetRow = {
    id: generateAssetId(),
    sha256,
    mediaType: image.mediaType,
    bytes: bytes.length,
    width: image.width,
    height: image.height,
    createdAt: now,
    touchedAt: now,
  };
  await env.ASSETS_BUCKET.put(objectKey(row.id), bytes, { httpMetadata: { contentType: image.mediaType }, sha256 });
  const [stored] = await db
    .insert(assets)
    .values(row)
    .onConflictDoUpdate({ target: assets.sha256, set: { touchedAt: now } })
    .returning();
  if (!stored) throw new Error("the asset was not stored");
  if (stored.id === row.id) return { row: stored, created: true };
  await deleteObjects(env, [row.id]);
  return { row: stored, created: false };
}

const assetRow = async (db: Database, id: string) => (await db.select().from(assets).where(eq(assets.id, id)))[0];

/**
 * The asset and its bytes, or null when either is missing (an unknown id). The request's session
 * may read a replica that has not yet seen an upload of a moment ago (a browser sends no
 * bookmark): an id it does not find is looked for again on the primary before the 404.
 */
export async function readAsset(env: Env, db: Database, id: string) {
  const row = (await assetRow(db, id)) ?? (await assetRow(drizzle(env.DB) as Database, id));
  if (!row) return null;
  const object = await env.ASSETS_BUCKET.get(objectKey(row.id));
  return object ? { row, body: object.body } : null;
}

/** Deletes objects whose row is gone (or never came); a failure leaves them, logged (they cost storage only). */
async function deleteObjects(env: Env, ids: string[]) {
  try {
    await env.ASSETS_BUCKET.delete(ids.map(objectKey));
  } catch (error) {
    logger(env).warn("asset objects not deleted", { assets: ids.join(","), error: String(error) });
  }
}

/**
 * The cron's share of assets: those no question refers to, untouched for a day, are removed —
 * the row in one statement that checks the references as it deletes (a question write racing it
 * either committed its reference first, and the asset stays, or fails its batch with a 400, since
 * its reference's asset is gone), then their objects.
 */
export async function sweepAssets(env: Env, db: Database, nowMs = Date.now()): Promise<number> {
  const cutoff = new Date(nowMs - UNREFERENCED_KEPT_MS).toISOString();
  const gone = await db.all<{ id: string }>(
    sql`DELETE FROM assets WHERE id IN (
          SELECT id FROM assets WHERE touched_at < ${cutoff}
            AND NOT EXISTS (SELECT 1 FROM asset_references AS r WHERE r.asset_id = assets.id)
          LIMIT ${SWEEP_LIMIT})
        RETURNING id`,
  );
  if (gone.length > 0)
    await deleteObjects(
      env,
      gone.map((g) => g.id),
    );
  return gone.length;
}
