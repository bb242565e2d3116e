import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { objectKey, storeAsset } from "../../../src/authoring/assets";
import { WakeUps } from "../../../src/db/after-commit";
import { jobs } from "../../../src/db/schema";
import type { Database } from "../../../src/env";
import { runImportJob } from "../../../src/imports/run";
import type { ImportParams } from "../../../src/imports/start";
import { storeUpload } from "../../../src/imports/uploads";
import { newId } from "../../../src/lib/ids";
import { isoNow } from "../../../src/lib/time";
import { bytes, QTI } from "../../interchange/fixtures";
import { RED_PNG } from "../../interchange/images";
import { questionsOf } from "./helpers";

/**
 * The moment an import's batch can lose its new asset: another upload of the same bytes between
 * the import's look-up of its images and its batch. Made to happen every time — the real R2
 * bucket, whose put of the import's object first lets POST /v1/assets's own store of the same
 * bytes run — the batch's guard fails, the import is planned again naming the upload's asset,
 * and the object the import put under its own id is deleted.
 */

const db = drizzle(env.DB) as Database;

async function queuedImport(file: Uint8Array) {
  const id = newId("job");
  await storeUpload(env, id, file, "application/zip");
  const params: ImportParams = { format: "qti", media_type: "application/zip", title: null, new_quiz: true, bytes: file.length };
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

describe("an import's new asset taken by an upload of the same bytes before its batch", () => {
  it("is planned again naming the upload's asset; its own object is deleted; one row for the bytes", async () => {
    for (let trial = 0; trial < 3; trial++) {
      const image = new Uint8Array([...RED_PNG, 0x42, trial]);
      const zip = zipSync({
        "imsmanifest.xml": bytes(QTI.rich["imsmanifest.xml"]),
        "items/flask.xml": bytes(QTI.rich["items/flask.xml"]),
        "images/flask.png": image,
      });
      const id = await queuedImport(zip);
      const putIds: string[] = [];
      let uploaded: string | undefined;
      const bucket = env.ASSETS_BUCKET;
      const racing = {
        ...env,
        ASSETS_BUCKET: {
          ...bucket,
          get: bucket.get.bind(bucket),
          head: bucket.head.bind(bucket),
          delete: bucket.delete.bind(bucket),
          put: async (key: string, value: Uint8Array, options?: R2PutOptions) => {
            // The import's put: the other upload stores the same bytes first, then the import's object goes in.
            if (uploaded === undefined) uploaded = (await storeAsset(env, db, image, "image/png")).row.id;
            putIds.push(key);
            return bucket.put(key, value, options);
          },
        },
      } as unknown as Env;
      const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
      await runImportJob(racing, db, new WakeUps(), row!);
      const [done] = await db.select().from(jobs).where(eq(jobs.id, id));
      expect(done?.status).toBe("succeeded");
      const [question] = await questionsOf(done!.quizId);
      expect(question!.prompt).toContain(`/v1/assets/${uploaded}`);
      const rows = await env.DB.prepare("SELECT id FROM assets WHERE sha256 = (SELECT sha256 FROM assets WHERE id = ?)")
        .bind(uploaded)
        .all();
      expect(rows.results.map((r) => r.id)).toEqual([uploaded]);
      // The import put its object under the id it read the image with (not the upload's, whose object the upload put itself)…
      const own = putIds.filter((key) => key !== objectKey(uploaded!));
      expect(own).toHaveLength(1);
      // …and deleted it once the asset was another's: no bytes stay without a row.
      expect(await env.ASSETS_BUCKET.head(own[0]!)).toBeNull();
      expect(await env.ASSETS_BUCKET.head(objectKey(uploaded!))).not.toBeNull();
    }
  });
});
