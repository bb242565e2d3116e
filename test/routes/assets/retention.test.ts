import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { sweepAssets } from "../../../src/authoring/assets";
import type { Database } from "../../../src/env";
import { call, callRaw, expectProblem } from "../../support/call";
import { png } from "../../support/images";
import { uploadAsset } from "./helpers";

/**
 * Retention (docs/assets.md#retention): an asset a question refers to is kept; one no question
 * refers to is removed by the cron a day after its last upload, its row and its object.
 */

const db = () => drizzle(env.DB) as Database;
const DAY_MS = 24 * 60 * 60_000;
/** The cron's sweep as it would run `ms` from now (it removes only what is a day older than its clock). */
const sweepAt = (ms: number) => sweepAssets(env, db(), Date.now() + ms);
const img = (url: string) => `<img src="${url}" alt="x">`;
let seed = 500_000;

async function upload(bytes = png(3, 2, seed++)) {
  const res = await uploadAsset(bytes, "image/png");
  expect([200, 201], res.text).toContain(res.status);
  return { ...res.json, status: res.status, bytes };
}

const served = async (url: string) => (await callRaw(url, { auth: false })).status;
const objectOf = (id: string) => env.ASSETS_BUCKET.head(`assets/${id}`);

/** Removes every asset no question refers to, whatever its age (runs the sweep until it finds none). */
async function sweepAllUnreferenced() {
  while ((await sweepAt(2 * DAY_MS)) > 0);
}

async function quizReferring(url: string) {
  const res = await call("/v1/quizzes", {
    body: { title: "Figures", questions: [{ type: "true_false", prompt: `Is it? ${img(url)}`, correct: true }] },
  });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

describe("the cron's sweep of assets", () => {
  it("keeps an unreferenced asset for a day after its upload, then removes its row and its object", async () => {
    const asset = await upload();
    await sweepAt(DAY_MS - 60_000);
    expect(await served(asset.url)).toBe(200);
    await sweepAllUnreferenced();
    expect(await served(asset.url)).toBe(404);
    expect(await objectOf(asset.id)).toBeNull();
    // The same bytes again are a new asset.
    const again = await upload(asset.bytes);
    expect(again.status).toBe(201);
    expect(again.id).not.toBe(asset.id);
    expect(await served(again.url)).toBe(200);
  });

  it("never removes an asset a question refers to; once the question is gone, it goes", async () => {
    const asset = await upload();
    const quiz = await quizReferring(asset.url);
    await sweepAllUnreferenced();
    expect(await served(asset.url)).toBe(200);
    expect((await call(`/v1/quizzes/${quiz.id}`, { method: "DELETE" })).status).toBe(204);
    await sweepAllUnreferenced();
    expect(await served(asset.url)).toBe(404);
  });

  it("uploading the same bytes again renews the day", async () => {
    const asset = await upload();
    // Made "two days ago": the sweep would take it, but an upload of its bytes touches it first.
    const old = new Date(Date.now() - 2 * DAY_MS).toISOString();
    await env.DB.prepare("UPDATE assets SET touched_at = ? WHERE id = ?").bind(old, asset.id).run();
    const again = await upload(asset.bytes);
    expect(again.status).toBe(200);
    expect(again.id).toBe(asset.id);
    await sweepAt(0);
    expect(await served(asset.url)).toBe(200);
  });

  it("a question written while the sweep runs, over 20 trials: either it refers to a kept asset, or it is refused with 400", async () => {
    for (let trial = 0; trial < 20; trial++) {
      const asset = await upload();
      const old = new Date(Date.now() - 2 * DAY_MS).toISOString();
      await env.DB.prepare("UPDATE assets SET touched_at = ? WHERE id = ?").bind(old, asset.id).run();
      const [write] = await Promise.all([
        call("/v1/quizzes", {
          body: { title: `Race ${trial}`, questions: [{ type: "true_false", prompt: img(asset.url), correct: true }] },
        }),
        sweepAt(0),
      ]);
      const kept = await served(asset.url);
      if (write.status === 201) expect(kept, `trial ${trial}: written, so kept`).toBe(200);
      else {
        expectProblem(write, 400, "validation_failed");
        expect(kept, `trial ${trial}: refused, so gone`).toBe(404);
      }
      // No reference ever names a missing asset.
      const dangling = await env.DB.prepare(
        "SELECT count(*) AS n FROM asset_references WHERE asset_id NOT IN (SELECT id FROM assets)",
      ).first<{ n: number }>();
      expect(dangling?.n).toBe(0);
      await sweepAllUnreferenced();
    }
  });

  it("the same bytes uploaded while the sweep runs, over 20 trials: the asset answered is always served", async () => {
    for (let trial = 0; trial < 20; trial++) {
      const asset = await upload();
      const old = new Date(Date.now() - 2 * DAY_MS).toISOString();
      await env.DB.prepare("UPDATE assets SET touched_at = ? WHERE id = ?").bind(old, asset.id).run();
      const [again] = await Promise.all([upload(asset.bytes), sweepAt(0)]);
      expect(await served(again.url), `trial ${trial}: ${again.status}`).toBe(200);
      expect(again.status === 200 ? again.id === asset.id : again.id !== asset.id, `trial ${trial}`).toBe(true);
    }
  });

  it("removes at most 100 a run", async () => {
    await sweepAllUnreferenced();
    await Promise.all(Array.from({ length: 105 }, () => upload()));
    expect(await sweepAt(2 * DAY_MS)).toBe(100);
    expect(await sweepAt(2 * DAY_MS)).toBe(5);
    expect(await sweepAt(2 * DAY_MS)).toBe(0);
    expect((await env.ASSETS_BUCKET.list()).objects).toHaveLength(0);
  });
});
