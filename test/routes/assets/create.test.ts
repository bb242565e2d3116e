import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { isAssetId } from "../../../src/domain/asset-url";
import { call, callRaw, expectProblem } from "../../support/call";
import { gif, JPEG_7X5, png, WEBP_VP8_9X4, WEBP_VP8L_6X3, WEBP_VP8X_9X4 } from "../../support/images";
import { assetFootprint, keyWith, uploadAsset } from "./helpers";

const hexOf = async (bytes: Uint8Array) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");

describe("POST /v1/assets", () => {
  it.each([
    ["a PNG", png(3, 2, 11), "image/png", 3, 2],
    ["a GIF", gif(5, 3), "image/gif", 5, 3],
    ["a JPEG", JPEG_7X5, "image/jpeg", 7, 5],
    ["a lossy WebP (VP8)", WEBP_VP8_9X4, "image/webp", 9, 4],
    ["a lossless WebP (VP8L)", WEBP_VP8L_6X3, "image/webp", 6, 3],
    ["an extended WebP (VP8X)", WEBP_VP8X_9X4, "image/webp", 9, 4],
  ] as const)("%s → 201 with its size read from the bytes, stored in R2 under its id", async (_, bytes, type, width, height) => {
    const res = await uploadAsset(bytes, type);
    expect(res.status, res.text).toBe(201);
    const sha256 = await hexOf(bytes);
    expect(res.json).toEqual({
      id: expect.any(String),
      url: `/v1/assets/${res.json.id}`,
      media_type: type,
      bytes: bytes.length,
      width,
      height,
      sha256,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(isAssetId(res.json.id)).toBe(true);
    expect(res.headers.get("location")).toBe(res.json.url);
    const object = await env.ASSETS_BUCKET.get(`assets/${res.json.id}`);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(bytes);
    expect(object!.httpMetadata?.contentType).toBe(type);
  });

  it("a Content-Type with parameters or in capitals is the same type", async () => {
    const res = await uploadAsset(png(2, 5, 12), "Image/PNG; charset=binary");
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ media_type: "image/png", width: 2, height: 5 });
  });

  it("the same bytes again → 200 with the same asset, nothing more stored", async () => {
    const bytes = png(6, 6, 13);
    const first = await uploadAsset(bytes, "image/png");
    expect(first.status, first.text).toBe(201);
    const before = await assetFootprint();
    const again = await uploadAsset(bytes, "image/png");
    expect(again.status, again.text).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get("location")).toBe(first.json.url);
    expect(await assetFootprint()).toEqual(before);
  });

  it("two identical uploads at once, over 25 trials: always one asset, one 201 and one 200", async () => {
    for (let trial = 0; trial < 25; trial++) {
      const bytes = png(3, 3, 100_000 + trial);
      const answers = await Promise.all([uploadAsset(bytes, "image/png"), uploadAsset(bytes, "image/png")]);
      for (const res of answers) expect([200, 201], res.text).toContain(res.status);
      expect(answers.map((r) => r.status).sort(), `trial ${trial}`).toEqual([200, 201]);
      expect(answers[0]!.json.id).toBe(answers[1]!.json.id);
      const rows = await env.DB.prepare("SELECT id FROM assets WHERE sha256 = ?")
        .bind(await hexOf(bytes))
        .all();
      expect(rows.results, `trial ${trial}`).toHaveLength(1);
    }
  });

  it("five identical uploads at once: one row, every answer the same asset", async () => {
    const bytes = gif(77, 66);
    const answers = await Promise.all(Array.from({ length: 5 }, () => uploadAsset(bytes, "image/gif")));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(answers.map((r) => r.json.id)).size).toBe(1);
  });

  it("the same Idempotency-Key and image → the first answer replayed", async () => {
    const bytes = png(2, 2, 14);
    const headers = { "idempotency-key": crypto.randomUUID() };
    const first = await uploadAsset(bytes, "image/png", { headers });
    const replay = await uploadAsset(bytes, "image/png", { headers });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toEqual(first.json);
    const other = await uploadAsset(png(2, 2, 15), "image/png", { headers });
    expectProblem(other, 409, "idempotency_key_reused");
  });
});

describe("POST /v1/assets refused: the right problem, nothing stored", () => {
  async function refused(
    send: () => Promise<{ status: number; headers: Headers; text: string; json: unknown }>,
    status: number,
    code: string,
  ) {
    const before = await assetFootprint();
    const problem = expectProblem(await send(), status, code);
    expect(await assetFootprint()).toEqual(before);
    // The connection still answers.
    expect((await call("/v1/auth/verify")).status).toBe(200);
    return problem;
  }

  const SIX_MIB = new Uint8Array(6 * 1024 * 1024);
  SIX_MIB.set(png(10, 10, 16));

  it("over 5 MiB with Content-Length → 413", async () => {
    const problem = await refused(() => uploadAsset(SIX_MIB, "image/png"), 413, "payload_too_large");
    expect(problem.detail).toContain("5 MiB");
  });

  it("over 5 MiB streamed, without Content-Length → 413", async () => {
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 6; i++) controller.enqueue(SIX_MIB.subarray(i << 20, (i + 1) << 20));
          controller.close();
        },
      });
    await refused(() => uploadAsset(stream(), "image/png"), 413, "payload_too_large");
  });

  it("5 MiB exactly is accepted as to its size", async () => {
    const bytes = new Uint8Array(5 * 1024 * 1024);
    bytes.set(png(8, 9, 17));
    const res = await uploadAsset(bytes, "image/png");
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ bytes: 5 * 1024 * 1024, width: 8, height: 9 });
  });

  it.each([
    ["PNG bytes as image/jpeg", png(2, 2, 18), "image/jpeg"],
    ["JPEG bytes as image/png", JPEG_7X5, "image/png"],
    ["GIF bytes as image/webp", gif(2, 2), "image/webp"],
    ["WebP bytes as image/gif", WEBP_VP8_9X4, "image/gif"],
    ["text as image/png", new TextEncoder().encode("not an image at all"), "image/png"],
    ["an HTML page as image/gif", new TextEncoder().encode("<html><script>alert(1)</script></html>"), "image/gif"],
    ["a PNG signature without IHDR", png(2, 2, 19).subarray(0, 12), "image/png"],
    ["a JPEG without a frame header", new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), "image/jpeg"],
    ["a GIF of 0 × 0", gif(0, 0), "image/gif"],
  ])("%s → 415", async (_, bytes, type) => {
    const problem = await refused(() => uploadAsset(bytes, type), 415, "unsupported_media_type");
    expect(problem.detail).toContain(type);
  });

  it.each([
    ["image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg"/>'],
    ["image/bmp", "BM"],
    ["application/octet-stream", "x"],
    ["application/json", "{}"],
    ["text/html", "<p>"],
  ])("a body of %s → 415", async (type, body) => {
    await refused(() => uploadAsset(body, type), 415, "unsupported_media_type");
  });

  it("no Content-Type → 415", async () => {
    await refused(() => uploadAsset(new Blob([png(2, 2, 20)]).stream(), undefined), 415, "unsupported_media_type");
  });

  it("an empty body → 400", async () => {
    await refused(() => uploadAsset(new Uint8Array(), "image/png"), 400, "validation_failed");
  });

  it("without a credential → 401, without quizzes:write → 403", async () => {
    await refused(() => uploadAsset(png(2, 2, 21), "image/png", { auth: false }), 401, "unauthorized");
    const reader = await keyWith("quizzes:read");
    await refused(() => uploadAsset(png(2, 2, 21), "image/png", { auth: reader }), 403, "insufficient_scope");
  });

  it("another method on /v1/assets → 405", async () => {
    const res = await callRaw("/v1/assets");
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toBe("POST");
  });

  it("the bucket holds one object per distinct image", async () => {
    const { results } = await env.DB.prepare("SELECT id FROM assets").all<{ id: string }>();
    const listed = await env.ASSETS_BUCKET.list();
    expect(listed.objects.map((o) => o.key).sort()).toEqual(results.map((r) => `assets/${r.id}`).sort());
  });
});
