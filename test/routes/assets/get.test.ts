import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../../src/app";
import { generateAssetId } from "../../../src/domain/asset-url";
import { BASE, callRaw, expectProblem, fetchWorker } from "../../support/call";
import { gif, JPEG_7X5, png, WEBP_VP8L_6X3 } from "../../support/images";
import { keyWith, uploadAsset } from "./helpers";

const randomIp = () => `10.${[...crypto.getRandomValues(new Uint8Array(3))].join(".")}`;

/** GET (or HEAD) of an asset's URL with only the headers given: no credential unless one is passed. */
async function fetchAsset(path: string, headers: Record<string, string> = {}, method = "GET") {
  const res = await fetchWorker(
    new Request(`${BASE}${path}`, { method, headers: { "cf-connecting-ip": randomIp(), ...headers } }),
  );
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function stored(bytes: Uint8Array, type: string) {
  const res = await uploadAsset(bytes, type);
  expect(res.status, res.text).toBe(201);
  return res.json;
}

describe("GET /v1/assets/{id}", () => {
  it.each([
    ["a PNG", png(5, 4, 31), "image/png"],
    ["a JPEG", JPEG_7X5, "image/jpeg"],
    ["a GIF", gif(3, 3), "image/gif"],
    ["a WebP", WEBP_VP8L_6X3, "image/webp"],
  ])("%s: its bytes and media type, without a credential, with the asset's headers exactly", async (_, bytes, type) => {
    const asset = await stored(bytes, type);
    const res = await fetchAsset(asset.url);
    expect(res.status).toBe(200);
    expect(res.bytes).toEqual(bytes);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(res.headers.get("etag")).toBe(`"${asset.sha256}"`);
    // Shown as an img by pages of other origins (a client's own, an LMS's).
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    // No bookmark: nothing authorized this request.
    expect(res.headers.get("x-d1-bookmark")).toBeNull();
  });

  it("a credential sent is not looked at: an invalid one, a revoked-looking one, one without any scope → 200", async () => {
    const asset = await stored(png(2, 3, 32), "image/png");
    const sent: Record<string, string>[] = [
      { authorization: "Bearer qz_live_not_a_key" },
      { "x-api-key": "nonsense" },
      { authorization: `Bearer ${await keyWith("users:read")}` },
      { authorization: "Basic dXNlcjpwYXNz" },
    ];
    for (const headers of sent) {
      const res = await fetchAsset(asset.url, headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.headers.get("www-authenticate")).toBeNull();
    }
  });

  it("HEAD: the same headers, no bytes", async () => {
    const bytes = png(7, 2, 33);
    const asset = await stored(bytes, "image/png");
    const [get, head] = [await fetchAsset(asset.url), await fetchAsset(asset.url, {}, "HEAD")];
    expect(head.status).toBe(200);
    expect(head.bytes).toHaveLength(0);
    for (const name of ["content-type", "cache-control", "etag", "content-security-policy", "x-content-type-options"])
      expect(head.headers.get(name), name).toBe(get.headers.get(name));
  });

  it("If-None-Match naming its ETag → 304 with its caching headers, no bytes; another ETag → 200", async () => {
    const asset = await stored(png(2, 9, 34), "image/png");
    const etag = `"${asset.sha256}"`;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const res = await fetchAsset(asset.url, { "if-none-match": header });
      expect(res.status, header).toBe(304);
      expect(res.bytes).toHaveLength(0);
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    expect((await fetchAsset(asset.url, { "if-none-match": '"0000"' })).status).toBe(200);
  });

  it("an unknown id → 404 problem, not cached", async () => {
    const res = await callRaw(`/v1/assets/${generateAssetId()}`, { auth: false });
    expectProblem(res, 404, "not_found");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it.each([
    ["ast_short"],
    [`${generateAssetId().slice(0, -1)}u`],
    [generateAssetId().toUpperCase()],
    ["quiz_01kamz3f7c9n0p8s6e5vwx2y4r"],
    [`${generateAssetId()}.png`],
  ])("a malformed id (%s) → 404 problem, not cached", async (id) => {
    const res = await callRaw(`/v1/assets/${id}`, { auth: false });
    expectProblem(res, 404, "not_found");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("a row whose bytes are missing from R2 → 404, never a 500", async () => {
    const asset = await stored(png(3, 1, 35), "image/png");
    await env.ASSETS_BUCKET.delete(`assets/${asset.id}`);
    expectProblem(await callRaw(asset.url, { auth: false }), 404, "not_found");
  });

  it("other methods on an asset's URL still need a credential (401), and with one are 405", async () => {
    const asset = await stored(png(4, 1, 36), "image/png");
    const anonymous = await callRaw(asset.url, { method: "DELETE", auth: false });
    expectProblem(anonymous, 401, "unauthorized");
    expectProblem(await callRaw(asset.url, { method: "DELETE" }), 405, "method_not_allowed");
  });

  it("counted per client IP under the anonymous limit: past it → 429 with Retry-After", async () => {
    const asset = await stored(png(1, 4, 37), "image/png");
    const ip = randomIp();
    const vars = { ...env, ANONYMOUS_RATE_LIMIT_REQUESTS: "2" };
    const send = () =>
      app.fetch(new Request(`${BASE}${asset.url}`, { headers: { "cf-connecting-ip": ip } }), vars, {
        waitUntil: () => {},
        passThroughOnException: () => {},
        props: {},
      } as unknown as ExecutionContext);
    const answers = [await send(), await send(), await send()];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(answers[2]!.headers.get("retry-after")).toBeTruthy();
    expect(answers[2]!.headers.get("cache-control")).toBe("no-store");
    for (const r of answers) await r.arrayBuffer();
  });
});
