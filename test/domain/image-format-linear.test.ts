import { describe, expect, it } from "vitest";
import { assetIdsIn } from "../../src/domain/asset-references";
import { generateAssetId } from "../../src/domain/asset-url";
import { readImage } from "../../src/domain/image-format";
import { DOUBLINGS, expectGrowthAtMost, GROWTH_TEST_TIMEOUT_MS } from "../support/growth";

/**
 * No image header or question text makes the readers super-linear (docs/security.md, "Parsing has
 * a budget"): the JPEG marker walk over hostile files, and the scan for asset ids over hostile
 * texts, of 16 to 128 KiB, grow at most linearly (test/support/growth.ts: ratios of times in one run).
 */

const SOF0 = [0xff, 0xc0, 0, 11, 8, 0, 1, 0, 1, 1, 1, 0x11, 0];

describe("reading a JPEG's size is linear in the file", { timeout: GROWTH_TEST_TIMEOUT_MS }, () => {
  it("fill bytes (0xFF) before the frame header", () => {
    expectGrowthAtMost({
      sizes: DOUBLINGS,
      perStep: 2.5,
      make: (size) => {
        const data = new Uint8Array([0xff, 0xd8, ...new Uint8Array(size).fill(0xff), ...SOF0.slice(1)]);
        expect(readImage(data, "image/jpeg")).toEqual({ mediaType: "image/jpeg", width: 1, height: 1 });
        return () => readImage(data, "image/jpeg");
      },
    });
  });

  it("segments of the largest length (64 KiB each), then the frame header", () => {
    expectGrowthAtMost({
      sizes: DOUBLINGS.map((s) => s * 16),
      perStep: 2.5,
      make: (size) => {
        const segments = Math.ceil(size / 65537);
        const data = new Uint8Array(2 + segments * 65537 + SOF0.length);
        data.set([0xff, 0xd8]);
        for (let i = 0; i < segments; i++) data.set([0xff, 0xe1, 0xff, 0xff], 2 + i * 65537);
        data.set(SOF0, 2 + segments * 65537);
        expect(readImage(data, "image/jpeg")).toMatchObject({ width: 1 });
        return () => readImage(data, "image/jpeg");
      },
    });
  });

  it("tiny segments: the marker budget stops the walk", () => {
    expectGrowthAtMost({
      sizes: DOUBLINGS,
      perStep: 2.5,
      make: (size) => {
        const data = new Uint8Array(2 + size * 4);
        data.set([0xff, 0xd8]);
        for (let i = 0; i < size; i++) data.set([0xff, 0xe1, 0, 2], 2 + i * 4);
        expect(readImage(data, "image/jpeg")).toMatchObject({ kind: "unreadable" });
        return () => readImage(data, "image/jpeg");
      },
    });
  });
});

describe("finding asset ids in a question's texts is linear in the text", { timeout: GROWTH_TEST_TIMEOUT_MS }, () => {
  const id = generateAssetId();
  it.each([
    ["the path's prefix repeated", "/v1/assets/"],
    ["near-miss ids (one character short)", `/v1/assets/${id.slice(0, -1)}!`],
    ["whole ids, all the same", `/v1/assets/${id}"`],
  ])("%s", (_, unit) => {
    expectGrowthAtMost({
      sizes: DOUBLINGS,
      perStep: 2.5,
      make: (size) => {
        const text = unit.repeat(Math.ceil(size / unit.length));
        expect(assetIdsIn([text]).length).toBeLessThanOrEqual(1);
        return () => assetIdsIn([text]);
      },
    });
  });
});
