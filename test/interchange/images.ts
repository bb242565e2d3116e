/** Tiny real PNG images (2×2 red, 3×2 blue: signature, IHDR, one IDAT, IEND), for imports and exports that carry images. */

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

const RED_PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGO4o6EBRAwQCgAjrgSxn17XlQAAAABJRU5ErkJggg==";
const BLUE_PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAEElEQVR4nGPQ0LgDQQxwFgBCLAcJc71bbgAAAABJRU5ErkJggg==";
export const RED_PNG = fromBase64(RED_PNG_BASE64);
export const BLUE_PNG = fromBase64(BLUE_PNG_BASE64);

/** A PNG header claiming 1×1 followed by zeros up to `size` bytes: readable as a PNG's size, and as big as needed. */
export function bigPng(size: number): Uint8Array {
  const out = new Uint8Array(size);
  out.set(RED_PNG.subarray(0, 33));
  return out;
}

/** A Windows bitmap's first bytes: an image, but not of a format the service keeps. */
export const BMP = new Uint8Array([
  0x42, 0x4d, 0x3a, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 0x28, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0x18, 0,
]);
