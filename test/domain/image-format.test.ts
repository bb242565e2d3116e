import { describe, expect, it } from "vitest";
import { IMAGE_MEDIA_TYPES, readImage, sniffImage } from "../../src/domain/image-format";
import { gif, JPEG_7X5, png, WEBP_VP8_9X4, WEBP_VP8L_6X3, WEBP_VP8X_9X4 } from "../support/images";

const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

describe("an image's format and size, from its bytes", () => {
  it.each([
    ["a PNG", png(3, 2), "image/png", 3, 2],
    ["a wide PNG", png(300, 1), "image/png", 300, 1],
    ["a GIF", gif(5, 3), "image/gif", 5, 3],
    ["a GIF of the largest screen", gif(65535, 65535), "image/gif", 65535, 65535],
    ["a JPEG (Chromium's, JFIF and an ICC profile before its SOF0)", JPEG_7X5, "image/jpeg", 7, 5],
    ["a lossy WebP (VP8)", WEBP_VP8_9X4, "image/webp", 9, 4],
    ["a lossless WebP (VP8L)", WEBP_VP8L_6X3, "image/webp", 6, 3],
    ["an extended WebP (VP8X)", WEBP_VP8X_9X4, "image/webp", 9, 4],
  ] as const)("%s", (_, data, type, width, height) => {
    expect(sniffImage(data)).toBe(type);
    expect(readImage(data, type)).toEqual({ mediaType: type, width, height });
  });

  it("a format's magic bytes under another Content-Type: not that format", () => {
    const samples = { "image/png": png(2, 2), "image/gif": gif(2, 2), "image/jpeg": JPEG_7X5, "image/webp": WEBP_VP8_9X4 };
    for (const [actual, data] of Object.entries(samples))
      for (const claimed of IMAGE_MEDIA_TYPES)
        if (claimed !== actual)
          expect(readImage(data, claimed), `${actual} as ${claimed}`).toEqual({ kind: "not_that_format", format: claimed });
  });

  it("text, an SVG, a BMP, nothing at all: no format", () => {
    for (const data of [
      new TextEncoder().encode("hello"),
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      bytes(...ascii("BM"), 0, 0, 0, 0),
      new Uint8Array(),
      bytes(...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WAVE")),
    ])
      expect(sniffImage(data)).toBeUndefined();
  });

  it("cut short anywhere: unreadable, never a size read from missing bytes", () => {
    const cases = [
      [png(3, 2), "image/png", 24],
      [gif(5, 3), "image/gif", 10],
      [JPEG_7X5, "image/jpeg", 0],
      [WEBP_VP8_9X4, "image/webp", 30],
      [WEBP_VP8L_6X3, "image/webp", 30],
      [WEBP_VP8X_9X4, "image/webp", 30],
    ] as const;
    for (const [data, type, readable] of cases) {
      // The JPEG's frame header is its 7th segment: every cut before its end leaves it unread.
      const sofEnd = type === "image/jpeg" ? frameHeaderEnd(data) : readable;
      for (let length = 1; length < sofEnd; length++) {
        const result = readImage(data.subarray(0, length), type);
        expect("kind" in result, `${type} cut at ${length}: ${JSON.stringify(result)}`).toBe(true);
      }
    }
  });

  it("a width or height of 0 is no image", () => {
    expect(readImage(png(0, 2), "image/png")).toMatchObject({ kind: "unreadable" });
    expect(readImage(gif(4, 0), "image/gif")).toMatchObject({ kind: "unreadable" });
  });

  it("a PNG whose first chunk is not IHDR is unreadable", () => {
    const data = png(3, 2);
    data.set(ascii("IDAT"), 12);
    expect(readImage(data, "image/png")).toMatchObject({ kind: "unreadable" });
  });

  it("a JPEG: fill bytes before a marker are skipped, DHT/JPG/DAC are no frame header, SOS before a SOF is refused", () => {
    const sof = (marker: number) => [0xff, marker, 0, 11, 8, 0, 20, 0, 30, 1, 1, 0x11, 0];
    const jpeg = (...segments: number[][]) => new Uint8Array([0xff, 0xd8, ...segments.flat()]);
    expect(readImage(jpeg([0xff, 0xff, 0xff], sof(0xc2)), "image/jpeg")).toEqual({
      mediaType: "image/jpeg",
      width: 30,
      height: 20,
    });
    expect(readImage(jpeg([0xff, 0xc4, 0, 2], sof(0xc1)), "image/jpeg")).toEqual({
      mediaType: "image/jpeg",
      width: 30,
      height: 20,
    });
    for (const notFrame of [0xc4, 0xc8, 0xcc])
      expect(readImage(jpeg([0xff, notFrame, 0, 2], [0xff, 0xd9]), "image/jpeg")).toMatchObject({ kind: "unreadable" });
    expect(readImage(jpeg([0xff, 0xda, 0, 2], sof(0xc0)), "image/jpeg")).toMatchObject({ kind: "unreadable" });
    expect(readImage(jpeg([0xff, 0xe0, 0, 1], sof(0xc0)), "image/jpeg")).toMatchObject({ kind: "unreadable" }); // length < 2
    expect(readImage(jpeg([0xff, 0xe0, 0, 200]), "image/jpeg")).toMatchObject({ kind: "unreadable" }); // past the end
    expect(readImage(jpeg([0xff, 0xe0, 0, 2], [0x00, 0x00]), "image/jpeg")).toMatchObject({ kind: "unreadable" }); // no marker
  });

  it("a JPEG with more markers than the budget before its frame header is refused", () => {
    const many = Array.from({ length: 10_001 }, () => [0xff, 0xe1, 0, 2]).flat();
    const data = new Uint8Array([0xff, 0xd8, ...many, 0xff, 0xc0, 0, 11, 8, 0, 1, 0, 1, 1, 1, 0x11, 0]);
    expect(readImage(data, "image/jpeg")).toEqual({
      kind: "unreadable",
      detail: "more than 10000 markers before the frame header",
    });
  });

  it("a WebP whose first chunk is another's is unreadable", () => {
    const data = WEBP_VP8_9X4.slice();
    data.set(ascii("ALPH"), 12);
    expect(readImage(data, "image/webp")).toMatchObject({ kind: "unreadable" });
  });
});

/** Where the JPEG's frame header (SOF0–SOF15) ends. */
function frameHeaderEnd(data: Uint8Array): number {
  let at = 2;
  for (;;) {
    const marker = data[at + 1] ?? 0;
    const length = ((data[at + 2] ?? 0) << 8) | (data[at + 3] ?? 0);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return at + 2 + 7;
    at += 2 + length;
  }
}
