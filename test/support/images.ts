import CRC32 from "crc-32";
import { zlibSync } from "fflate";

/**
 * Real small images of each format an asset may be. PNG and GIF are written here, pixel by pixel,
 * at any size. The JPEG and the WebP files were made by Chromium 150 (Debian's package, through playwright-core) with
 * `canvas.toBlob(type, 0.8)` (lossless WebP: quality 1) from a canvas filled with two colours;
 * WEBP_VP8 and WEBP_VP8L are Chromium's VP8 and VP8L chunks alone in a RIFF container (the simple
 * file format), WEBP_VP8X its own file (VP8X, ICC profile, VP8). Each opens in Chromium at the size
 * its name says.
 */

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

export const JPEG_7X5 = fromBase64(
  "/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAFAAcDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAL/xAAdEAABBQADAQAAAAAAAAAAAAABAAIDBBETITFB/8QAFQEBAQAAAAAAAAAAAAAAAAAABQb/xAAfEQEAAQQBBQAAAAAAAAAAAAABAwACBBExIUFxkbH/2gAMAwEAAhEDEQA/ALktROqiIVmNfgHIM3r74iIjYobIRLO7vlftQOTly5VxdKiho0B0PAe+a//Z",
);
export const WEBP_VP8X_9X4 = fromBase64(
  "UklGRiwCAABXRUJQVlA4WAoAAAAgAAAACAAAAwAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZWUDggPgAAANABAJ0BKgkABAABQCYlqAJ0AQtexvUAAOJJfDPqNqWhLphy/+d7ao+Yj/9liBGVWGUz7X//nouhkva/zgAA",
);
export const WEBP_VP8_9X4 = fromBase64(
  "UklGRkoAAABXRUJQVlA4ID4AAADQAQCdASoJAAQAAUAmJagCdAELXsb1AADiSXwz6jaloS6Ycv/ne2qPmI//ZYgRlVhlM+1//56LoZL2v84AAA==",
);
export const WEBP_VP8L_6X3 = fromBase64("UklGRiIAAABXRUJQVlA4TBYAAAAvBYAAAA9wVe+LdN9Mc/4DD+MR0f8Q");

const u32be = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

function pngChunk(type: string, data: Uint8Array): number[] {
  const body = [...ascii(type), ...data];
  return [...u32be(data.length), ...body, ...u32be(CRC32.buf(body) >>> 0)];
}

/** A PNG of width × height RGB pixels, each a different shade (so two sizes never share bytes); `seed` varies them further. */
export function png(width: number, height: number, seed = 0): Uint8Array {
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const at = row + 1 + x * 3;
      raw[at] = (x * 37 + seed) & 255;
      raw[at + 1] = (y * 59 + (seed >> 8)) & 255;
      raw[at + 2] = (seed >> 16) & 255;
    }
  }
  const ihdr = new Uint8Array([...u32be(width), ...u32be(height), 8, 2, 0, 0, 0]);
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...pngChunk("IHDR", ihdr),
    ...pngChunk("IDAT", zlibSync(raw)),
    ...pngChunk("IEND", new Uint8Array()),
  ]);
}

/**
 * A GIF89a whose logical screen is width × height (each at most 65 535), filled by one image of
 * one pixel at the top left, the rest the background colour: a valid file of any size in 35 bytes.
 */
export function gif(width: number, height: number): Uint8Array {
  const u16le = (n: number) => [n & 255, n >> 8];
  return new Uint8Array([
    ...ascii("GIF89a"),
    ...u16le(width),
    ...u16le(height),
    0x80,
    0,
    0, // screen, a global table of 2 colours
    0,
    0,
    0,
    255,
    255,
    255, // black, white
    0x2c,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0, // the image: at 0,0, 1 × 1
    0x02,
    0x02,
    0x44,
    0x01,
    0x00, // LZW minimum code size 2, one block of 2 bytes, end
    0x3b,
  ]);
}
