import { env } from "cloudflare:workers";
import { unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { bytes, MOODLE, QTI } from "../../interchange/fixtures";
import { BLUE_PNG, RED_PNG } from "../../interchange/images";
import { BASE, call, defaultKey, fetchWorker } from "../../support/call";
import { finished, imported, questionsOf, upload } from "./helpers";

/**
 * CONTRACT §19 through POST /v1/imports, R2 and the real jobs queue: a package's images and a
 * Moodle file's base64 images become assets the questions refer to (GET /v1/quizzes/{id}/assets
 * lists them, GET /v1/assets/{id} answers their bytes), the same bytes the same asset; TeX becomes
 * MathML when written.
 */

const ASSET = /\/v1\/assets\/(ast_[0-9a-z]{32})/g;
const assetsIn = (text: string) => [...text.matchAll(ASSET)].map((m) => m[1] as string);
const hex = async (data: Uint8Array) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", data))].map((b) => b.toString(16).padStart(2, "0")).join("");

const pkg = (
  images: Record<string, Uint8Array>,
  items: (keyof typeof QTI.rich)[] = [
    "imsmanifest.xml",
    "items/flask.xml",
    "items/speed.xml",
    "items/beaker.xml",
    "items/lost.xml",
  ],
) => zipSync({ ...Object.fromEntries(items.map((name) => [name, bytes(QTI.rich[name])])), ...images });

async function quizAssets(quizId: string) {
  const res = await call(`/v1/quizzes/${quizId}/assets`);
  expect(res.status, res.text).toBe(200);
  return res.json.assets as { id: string; sha256: string; width: number; height: number; media_type: string; bytes: number }[];
}

/** GET /v1/assets/{id}, without a credential: the bytes served. */
async function assetBytes(id: string) {
  const res = await fetchWorker(new Request(`${BASE}/v1/assets/${id}`));
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe("POST /v1/imports keeps images and mathematics", () => {
  it("a QTI package: its image files become assets the questions refer to, listed by the quiz and served as sent", async () => {
    const job = await imported(pkg({ "images/flask.png": RED_PNG, "images/beaker.png": BLUE_PNG }), "application/zip");
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    expect(job.result!.report.map((e) => [e.source_id, e.status])).toEqual([
      ["flask", "imported"],
      ["speed", "imported"],
      ["beaker", "imported"],
      ["lost", "approximated"],
    ]);
    const questions = await questionsOf(job.quiz_id);
    const flask = questions[0]!;
    expect((flask as { content_format?: string }).content_format).toBe("html");
    const [red] = assetsIn(flask.prompt);
    const beaker = questions[2] as { options: { text: string }[] };
    const [first, second] = beaker.options.map((o) => assetsIn(o.text)[0]);
    expect(first).toBe(red);
    const listed = await quizAssets(job.quiz_id);
    expect(listed.map((a) => a.id).sort()).toEqual([red, second].sort());
    expect(listed.find((a) => a.id === red)).toMatchObject({
      sha256: await hex(RED_PNG),
      width: 2,
      height: 2,
      media_type: "image/png",
      bytes: RED_PNG.length,
    });
    expect(await assetBytes(red!)).toEqual(RED_PNG);
    expect(await assetBytes(second!)).toEqual(BLUE_PNG);
  });

  it("the same bytes are the same asset: one uploaded before, and the same package imported twice", async () => {
    const pink = new Uint8Array([...RED_PNG, 1]);
    const up = await call("/v1/assets", { method: "POST", raw: pink, headers: { "content-type": "image/png" } });
    expect(up.status, up.text).toBe(201);
    const before = (await env.DB.prepare("SELECT count(*) AS n FROM assets").first<{ n: number }>())?.n;
    const zip = pkg({ "images/flask.png": pink }, ["imsmanifest.xml", "items/flask.xml"]);
    const a = await imported(zip, "application/zip");
    const b = await imported(zip, "application/zip");
    for (const job of [a, b]) {
      expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
      const [q] = await questionsOf(job.quiz_id);
      expect(assetsIn(q!.prompt)).toEqual([up.json.id]);
      expect((await quizAssets(job.quiz_id)).map((x) => x.id)).toEqual([up.json.id]);
    }
    expect((await env.DB.prepare("SELECT count(*) AS n FROM assets").first<{ n: number }>())?.n).toBe(before);
  });

  it("two imports of the same new image at once: both written, one asset, over many trials", async () => {
    for (let trial = 0; trial < 6; trial++) {
      const image = new Uint8Array([...BLUE_PNG, 0xee, trial]);
      const zip = pkg({ "images/flask.png": image }, ["imsmanifest.xml", "items/flask.xml"]);
      const [x, y] = await Promise.all([upload(zip, "application/zip"), upload(zip, "application/zip")]);
      expect([x.status, y.status]).toEqual([202, 202]);
      const jobs = await Promise.all([finished(x.json.id), finished(y.json.id)]);
      const ids = new Set<string>();
      for (const job of jobs) {
        expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
        const [q] = await questionsOf(job.quiz_id);
        for (const id of assetsIn(q!.prompt)) ids.add(id);
        expect((await quizAssets(job.quiz_id)).map((a) => a.id)).toEqual([...assetsIn(q!.prompt)]);
      }
      expect(ids.size).toBe(1);
      const rows = await env.DB.prepare("SELECT id FROM assets WHERE sha256 = ?")
        .bind(await hex(image))
        .all();
      expect(rows.results.map((r) => r.id)).toEqual([...ids]);
      expect(await assetBytes([...ids][0]!)).toEqual(image);
    }
  }, 120_000);

  it("Moodle XML: @@PLUGINFILE@@ images become assets, TeX becomes MathML with its source kept, a plain question stays text", async () => {
    const job = await imported(MOODLE.rich, "application/xml");
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    expect(job.result!.report.map((e) => [e.source_id, e.status])).toEqual([
      ["Red square", "imported"],
      ["Root", "imported"],
      ["Sum of halves", "imported"],
      ["Describe the picture", "approximated"],
      ["Plain", "imported"],
    ]);
    const [square, root, halves, , plain] = await questionsOf(job.quiz_id);
    const listed = await quizAssets(job.quiz_id);
    expect(listed.map((a) => a.sha256).sort()).toEqual([await hex(RED_PNG), await hex(BLUE_PNG)].sort());
    expect(assetsIn(square!.prompt)).toEqual([listed.find((a) => a.sha256 === listed.find((b) => b.width === 2)?.sha256)?.id]);
    expect(root!.prompt).toMatch(
      /^<p>Solve <math>.*<annotation encoding="application\/x-tex">x\^2 = 4<\/annotation><\/semantics><\/math> for <math>/,
    );
    expect(halves!.prompt).toMatch(
      /<math display="block">.*<mfrac>.*<annotation encoding="application\/x-tex">\\frac\{1\}\{2\} \+ \\frac\{1\}\{4\}<\/annotation>/,
    );
    expect(plain).toMatchObject({ content_format: "text", prompt: "A square has four sides." });
  });

  it("an export writes the images back (QTI's files, Moodle's base64, GIFT's URL) and importing it again names the same assets", async () => {
    const job = await imported(pkg({ "images/flask.png": RED_PNG, "images/beaker.png": BLUE_PNG }), "application/zip");
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    const ids = (await quizAssets(job.quiz_id)).map((a) => a.id).sort();
    const exported = async (format: string) => {
      const res = await fetchWorker(
        new Request(`${BASE}/v1/quizzes/${job.quiz_id}/export?format=${format}`, {
          headers: { authorization: `Bearer ${await defaultKey()}` },
        }),
      );
      expect(res.status).toBe(200);
      return new Uint8Array(await res.arrayBuffer());
    };
    const zip = unzipSync(await exported("qti3"));
    const files = Object.keys(zip)
      .filter((name) => name.startsWith("images/"))
      .sort();
    expect(files).toEqual(ids.map((id) => `images/${id}.png`).sort());
    const red = (await quizAssets(job.quiz_id)).find((a) => a.width === 2)!.id;
    expect(zip[`images/${red}.png`]).toEqual(RED_PNG);
    const again = await imported(await exported("qti3"), "application/zip");
    expect((await quizAssets(again.quiz_id)).map((a) => a.id).sort()).toEqual(ids);

    const moodle = new TextDecoder().decode(await exported("moodle_xml"));
    expect(moodle).toContain(`@@PLUGINFILE@@/${red}.png`);
    expect(moodle).toContain(
      `<file name="${red}.png" path="/" encoding="base64">${btoa(String.fromCharCode(...RED_PNG))}</file>`,
    );
    const fromMoodle = await imported(moodle, "application/xml");
    expect((await quizAssets(fromMoodle.quiz_id)).map((a) => a.id).sort()).toEqual(ids);

    const gift = new TextDecoder().decode(await exported("gift"));
    expect(gift).toContain(`[html]`);
    expect(gift).toContain(`src\\="http\\://quiz.test/v1/assets/${red}"`);
    const fromGift = await imported(gift, "text/plain");
    expect((await quizAssets(fromGift.quiz_id)).map((a) => a.id).sort()).toEqual(ids);
  }, 60_000);
});
