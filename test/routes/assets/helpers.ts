import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { call, type Schema, seedApiKey } from "../../support/call";
import { png } from "../../support/images";

/** POST /v1/assets with the image as the raw body. */
export function uploadAsset(
  body: BodyInit,
  mediaType: string | undefined,
  options: { auth?: string | false; headers?: Record<string, string> } = {},
) {
  return call("/v1/assets", {
    method: "POST",
    raw: body,
    headers: { ...(mediaType === undefined ? {} : { "content-type": mediaType }), ...options.headers },
    auth: options.auth,
  });
}

let seed = 1;
/** A new asset: a PNG no other test uploads. */
export async function newAsset(): Promise<Schema<"Asset">> {
  const res = await uploadAsset(png(4, 3, seed++ * 7919), "image/png");
  expect(res.status, res.text).toBe(201);
  return res.json as Schema<"Asset">;
}

/** What is stored: the rows of assets and asset_references, and the objects of the bucket. */
export async function assetFootprint() {
  const [assets, references] = await Promise.all([
    env.DB.prepare("SELECT count(*) AS n FROM assets").first<{ n: number }>(),
    env.DB.prepare("SELECT count(*) AS n FROM asset_references").first<{ n: number }>(),
  ]);
  const objects = await env.ASSETS_BUCKET.list();
  return { assets: assets?.n, references: references?.n, objects: objects.objects.length };
}

/** The (asset, question) rows of asset_references for the questions given, sorted. */
export async function referencesOf(questionIds: string[]): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT asset_id, question_id FROM asset_references WHERE question_id IN (SELECT value FROM json_each(?)) ORDER BY 1, 2",
  )
    .bind(JSON.stringify(questionIds))
    .all<{ asset_id: string; question_id: string }>();
  return results.map((r) => `${r.asset_id} ${r.question_id}`);
}

export const keyWith = async (...scopes: Parameters<typeof seedApiKey>[0]) => (await seedApiKey(scopes)).key;
