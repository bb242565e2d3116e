import { sql } from "drizzle-orm";
import { objectKey } from "../authoring/assets";
import type { QuestionRow } from "../authoring/question-rows";
import type { assets } from "../db/assets-schema";
import { assetIdsIn } from "../domain/asset-references";
import { assetPath } from "../domain/asset-url";
import { contentFields } from "../domain/content/question-content";
import type { Database } from "../env";
import type { ImportedImage, ImportResult } from "../interchange";
import { isoNow } from "../lib/time";

/**
 * An import's images become assets (CONTRACT §19, docs/import-export.md#images). The reader gave
 * each distinct image an asset id its texts name; here each is hashed, and an image whose bytes
 * are already an asset is that asset (its texts renamed), the others are new rows written in the
 * import's one batch. Their bytes go to R2 before the batch, under their hash as every asset's
 * do: so no row ever names missing bytes. A batch that fails leaves those objects without a row
 * — unreferenced, never served (GET /v1/assets reads the row first), and the same object any
 * later upload of those bytes puts again; the batch itself is all or nothing.
 */

export type AssetRow = typeof assets.$inferSelect;

export interface HashedImage {
  image: ImportedImage;
  sha256: string;
}

const hex = (digest: ArrayBuffer) => [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");

export async function hashImages(images: readonly ImportedImage[]): Promise<HashedImage[]> {
  return Promise.all(images.map(async (image) => ({ image, sha256: hex(await crypto.subtle.digest("SHA-256", image.bytes)) })));
}

/**
 * The images as stored now: the read's texts renamed to the asset of the same bytes where one
 * exists (in place: renaming again after a conflict finds what is left), and the rows of the others.
 */
export async function resolveImages(
  db: Database,
  read: ImportResult,
  hashed: readonly HashedImage[],
  now = isoNow(),
): Promise<{ fresh: AssetRow[]; ids: Set<string> }> {
  if (hashed.length === 0) return { fresh: [], ids: new Set() };
  const known = await db.all<{ id: string; sha256: string }>(
    sql`SELECT id, sha256 FROM assets WHERE sha256 IN (SELECT value FROM json_each(${JSON.stringify(hashed.map((h) => h.sha256))}))`,
  );
  const bySha = new Map(known.map((k) => [k.sha256, k.id]));
  const rename = new Map<string, string>();
  const rows: AssetRow[] = [];
  for (const { image, sha256 } of hashed) {
    const existing = bySha.get(sha256);
    if (existing !== undefined) {
      if (existing !== image.id) rename.set(image.id, existing);
      continue;
    }
    rows.push({
      id: image.id,
      sha256,
      mediaType: image.mediaType,
      bytes: image.bytes.length,
      width: image.width,
      height: image.height,
      createdAt: now,
      touchedAt: now,
    });
  }
  if (rename.size > 0) renameAssets(read, rename);
  return { fresh: rows, ids: new Set([...rows.map((row) => row.id), ...bySha.values()]) };
}

const ASSET_PATH = /\/v1\/assets\/(ast_[0-9a-z]{32})/g;

function renameAssets(read: ImportResult, rename: Map<string, string>): void {
  for (const item of read.items) {
    if (item.question?.content_format !== "html") continue;
    for (const field of contentFields(item.question as unknown as Record<string, unknown>)) {
      if (field.value.includes("/v1/assets/"))
        field.replace(
          field.value.replace(ASSET_PATH, (path, id: string) => (rename.has(id) ? assetPath(rename.get(id) as string) : path)),
        );
    }
  }
}

/** The asset ids the planned questions' texts name. */
const referredIds = (rows: readonly QuestionRow[]) =>
  new Set(
    assetIdsIn(
      rows.flatMap((row) => [row.prompt, row.explanation ?? "", JSON.stringify(row.feedback), JSON.stringify(row.definition)]),
    ),
  );

/**
 * Of the file's images, those the planned questions refer to: the new rows to write (an image of a
 * skipped item is not written) and every such asset's id, whose rows must all be there when the
 * batch runs (a new one not taken by another upload, a known one not swept by the cron meanwhile).
 */
export function referredAssets(rows: readonly QuestionRow[], images: { fresh: AssetRow[]; ids: Set<string> }) {
  const referred = referredIds(rows);
  return {
    fresh: images.fresh.filter((row) => referred.has(row.id)),
    required: [...images.ids].filter((id) => referred.has(id)),
  };
}

/** The bytes of new assets in R2 under their ids, each put once per delivery (`put` remembers the ids). */
export async function putImages(
  env: Env,
  rows: readonly AssetRow[],
  hashed: readonly HashedImage[],
  put: Set<string>,
): Promise<void> {
  const bytes = new Map(hashed.map((h) => [h.sha256, h.image]));
  await Promise.all(
    rows
      .filter((row) => !put.has(row.id))
      .map(async (row) => {
        const image = bytes.get(row.sha256);
        if (!image) return;
        await env.ASSETS_BUCKET.put(objectKey(row.id), image.bytes, {
          httpMetadata: { contentType: row.mediaType },
          sha256: row.sha256,
        });
        put.add(row.id);
      }),
  );
}

/**
 * The objects this delivery put whose rows were not written (the batch failed, or another upload
 * of the same bytes won and the import was planned again naming that asset): deleted, so R2 holds
 * no bytes without a row. Only a delivery that dies between the put and this leaves one behind.
 */
export async function deleteUnwritten(env: Env, put: ReadonlySet<string>, written: ReadonlySet<string>): Promise<void> {
  const orphans = [...put].filter((id) => !written.has(id));
  if (orphans.length > 0) await env.ASSETS_BUCKET.delete(orphans.map(objectKey));
}
