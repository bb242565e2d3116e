/**
 * What an image's bytes are (docs/assets.md): its format, from the magic bytes, and its width and
 * height, from the header that format keeps them in. Never the Content-Type's word alone: an
 * asset is served with the media type its bytes have, under `nosniff`.
 *
 * Every reader is one forward pass over a bounded part of the bytes: PNG, GIF and WebP read fixed
 * offsets; JPEG walks its markers from the start, each step moving past a segment it skips by
 * its length (at least 2 bytes), and gives up after JPEG_MARKER_BUDGET markers, so the work is
 * linear in the bytes and bounded whatever they hold.
 */

export const IMAGE_MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

export interface ImageInfo {
  mediaType: ImageMediaType;
  width: number;
  height: number;
}

/** Why bytes are not a readable image of the format they claim. */
export type ImageProblem = { kind: "not_that_format"; format: ImageMediaType } | { kind: "unreadable"; detail: string };

/** Markers a JPEG may have before its frame header: far above any real file's tens. */
const JPEG_MARKER_BUDGET = 10_000;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));
const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, at: number) => u16le(b, at) | ((b[at + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, at: number) => u16be(b, at) * 0x10000 + u16be(b, at + 2);

/** The format the magic bytes name, or undefined. */
export function sniffImage(bytes: Uint8Array): ImageMediaType | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return undefined;
}

type Size = { width: number; height: number } | string;

function pngSize(b: Uint8Array): Size {
  // The first chunk is IHDR, 13 bytes: width and height, 4 bytes each, big-endian.
  if (b.length < 24 || u32be(b, 8) !== 13 || !startsWith(b, ascii("IHDR"), 12)) return "no IHDR chunk after the signature";
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

function gifSize(b: Uint8Array): Size {
  if (b.length < 10) return "no logical screen descriptor";
  return { width: u16le(b, 6), height: u16le(b, 8) };
}

/** SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const isFrameHeader = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
/** Markers without a length: TEM, RST0–7, SOI. */
const standsAlone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);

function jpegSize(b: Uint8Array): Size {
  let at = 2;
  for (let markers = 0; markers < JPEG_MARKER_BUDGET; markers++) {
    if (b[at] !== 0xff)
      return at >= b.length ? "no frame header (SOFn) before the end" : "a segment does not start with a marker";
    // Any number of 0xFF fill bytes may precede a marker.
    while (b[at] === 0xff) at++;
    const marker = b[at];
    at++;
    if (marker === undefined) return "no frame header (SOFn) before the end";
    if (standsAlone(marker)) continue;
    if (marker === 0xd9 || marker === 0xda) return "no frame header (SOFn) before the image data";
    const length = u16be(b, at);
    if (at + 2 > b.length || length < 2) return "a segment's length is cut short";
    if (isFrameHeader(marker)) {
      // Length (2), sample precision (1), number of lines (2), samples per line (2).
      if (length < 7 || at + 7 > b.length) return "the frame header is cut short";
      return { width: u16be(b, at + 5), height: u16be(b, at + 3) };
    }
    at += length;
  }
  return `more than ${JPEG_MARKER_BUDGET} markers before the frame header`;
}

function webpSize(b: Uint8Array): Size {
  if (b.length < 30) return "the file is cut short";
  if (startsWith(b, ascii("VP8 "), 12)) {
    // A key frame: 3 bytes of frame tag, the start code 9D 01 2A, then 14-bit width and height.
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23)) return "no VP8 key frame start code";
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (startsWith(b, ascii("VP8L"), 12)) {
    // The signature 0x2F, then width − 1 and height − 1 in 14 bits each, least significant first.
    if (b[20] !== 0x2f) return "no VP8L signature";
    const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (startsWith(b, ascii("VP8X"), 12)) {
    // Flags (4 bytes), then canvas width − 1 and height − 1 in 24 bits each.
    return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  }
  return "the first chunk is none of VP8, VP8L or VP8X";
}

const READERS: Record<ImageMediaType, (bytes: Uint8Array) => Size> = {
  "image/png": pngSize,
  "image/jpeg": jpegSize,
  "image/gif": gifSize,
  "image/webp": webpSize,
};

/**
 * The image the bytes hold if they are `claimed`'s format with a readable, non-zero size; else
 * why not: another format (or none) by the magic bytes, or a header that cannot be read.
 */
export function readImage(bytes: Uint8Array, claimed: ImageMediaType): ImageInfo | ImageProblem {
  if (sniffImage(bytes) !== claimed) return { kind: "not_that_format", format: claimed };
  const size = READERS[claimed](bytes);
  if (typeof size === "string") return { kind: "unreadable", detail: size };
  if (size.width === 0 || size.height === 0)
    return { kind: "unreadable", detail: "the image has no pixels (a width or height of 0)" };
  return { mediaType: claimed, ...size };
}

export const isImageMediaType = (value: string): value is ImageMediaType =>
  (IMAGE_MEDIA_TYPES as readonly string[]).includes(value);
