import { sql } from "drizzle-orm";
import { questionTexts } from "../authoring/asset-references";
import type { QuestionRow } from "../authoring/question-rows";
import type { assets } from "../db/assets-schema";
import { assetIdsIn } from "../domain/asset-references";
import { assetObjectKey, assetPath } from "../domain/asset-url";
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
): Promise<AssetRow[]> {
  if (hashed.length === 0) return [];
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
    });
  }
  if (rename.size > 0) renameAssets(read, rename);
  return rows;
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

/** The new assets the planned questions refer to: only those are written (an image of a skipped item is not). */
export function referredAssets(rows: readonly QuestionRow[], fresh: readonly AssetRow[]): AssetRow[] {
  if (fresh.length === 0) return [];
  const referred = new Set(assetIdsIn(rows.flatMap((row) => questionTexts(row))));
  return fresh.filter((row) => referred.has(row.id));
}

/** The bytes of new assets in R2, each put once per delivery (an object already there is the same bytes). */
export async function putImages(
  env: Env,
  rows: readonly AssetRow[],
  hashed: readonly HashedImage[],
  put: Set<string>,
): Promise<void> {
  const bytes = new Map(hashed.map((h) => [h.sha256, h.image]));
  await Promise.all(
    rows
      .filter((row) => !put.has(row.sha256))
      .map(async (row) => {
        const image = bytes.get(row.sha256);
        if (!image) return;
        await env.ASSETS_BUCKET.put(assetObjectKey(row.sha256), image.bytes, {
          httpMetadata: { contentType: row.mediaType },
          sha256: row.sha256,
        });
        put.add(row.sha256);
      }),
  );
}
