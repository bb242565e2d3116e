import { sql } from "drizzle-orm";
import { objectKey } from "../../authoring/assets";
import { assetIdsIn } from "../../domain/asset-references";
import type { Database } from "../../env";
import type { ExportAsset, QuizQuestion } from "../../interchange";

/**
 * The images an export carries (CONTRACT §19): the assets the quiz's html questions show, read
 * from R2 in the order the questions name them, up to EXPORT_IMAGE_BYTES in all — what a Worker
 * holds comfortably beside the file it writes (Moodle's base64 is a third larger). An image past
 * that, or whose bytes are gone, is referred to by its absolute URL instead (GET /v1/assets/{id}
 * needs no credential), so the file still shows it wherever the service is reachable.
 */
const EXPORT_IMAGE_BYTES = 32 * 1024 * 1024;

export async function exportAssets(
  env: Env,
  db: Database,
  questions: readonly QuizQuestion[],
): Promise<Map<string, ExportAsset>> {
  const ids = assetIdsIn(questions.filter((q) => q.content_format === "html").map((q) => JSON.stringify(q)));
  const out = new Map<string, ExportAsset>();
  if (ids.length === 0) return out;
  const rows = await db.all<{ id: string; sha256: string; media_type: string; bytes: number }>(
    sql`SELECT id, sha256, media_type, bytes FROM assets WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  let total = 0;
  const wanted = ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row || total + row.bytes > EXPORT_IMAGE_BYTES) return [];
    total += row.bytes;
    return [row];
  });
  await Promise.all(
    wanted.map(async (row) => {
      const object = await env.ASSETS_BUCKET.get(objectKey(row.id));
      if (object) out.set(row.id, { bytes: new Uint8Array(await object.arrayBuffer()), mediaType: row.media_type });
    }),
  );
  return out;
}
