/**
 * The images a read keeps (CONTRACT §19): a package's files (QTI) or a text's base64 `<file>`s
 * (Moodle XML) that its texts show. Each distinct image gets an asset id while it is read — its
 * texts then name `/v1/assets/<id>`, which the sanitizer keeps — and the import job stores it
 * (src/imports/assets.ts): the same bytes already stored become that asset, the texts renamed.
 * An image over 5 MiB (POST /v1/assets's limit), not PNG, JPEG, GIF or WebP, or unreadable is
 * dropped with a note. What one read keeps is bounded: IMAGE_BYTES_PER_READ in all.
 */
import { assetPath, generateAssetId } from "../domain/asset-url";
import { contentFields } from "../domain/content/question-content";
import { type ImageMediaType, readImage, sniffImage } from "../domain/image-format";
import type { ImportedItem, QuestionInput } from "./types";

/** POST /v1/assets's limit on one image (docs/assets.md). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** The image bytes one read keeps, all images together: what the job holds and stores beside the file's own 10 MiB. */
const IMAGE_BYTES_PER_READ = 32 * 1024 * 1024;

/** An image a read kept, under the asset id its texts name. */
export interface ImportedImage {
  id: string;
  bytes: Uint8Array;
  mediaType: ImageMediaType;
  width: number;
  height: number;
}

/** Why an image was dropped, as its item's note. */
export const imageDropped = (name: string, why: string) => `An image was dropped: "${name.slice(0, 100)}" ${why}.`;

export const WHY = {
  missing: "is not in the file",
  tooLarge: "is over 5 MiB",
  perRead: "would take the file's images over 32 MiB",
  format: "is not PNG, JPEG, GIF or WebP",
} as const;

/** FNV-1a over the bytes: a key that finds the same image again without keeping a second copy. */
function fingerprint(bytes: Uint8Array): string {
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193);
  return `${bytes.length}:${hash >>> 0}`;
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

export class ImageStore {
  private readonly kept: ImportedImage[] = [];
  private readonly byPrint = new Map<string, ImportedImage[]>();
  private total = 0;

  /** The asset id an image's texts name (`id` when it is new: the one its texts already name), or why it is dropped (see WHY). */
  add(bytes: Uint8Array, id = generateAssetId()): { id: string } | { why: string } {
    if (bytes.length > IMAGE_MAX_BYTES) return { why: WHY.tooLarge };
    const sniffed = sniffImage(bytes);
    if (!sniffed) return { why: WHY.format };
    const info = readImage(bytes, sniffed);
    if ("kind" in info) return { why: `is not a readable ${sniffed.slice(6).toUpperCase()} image` };
    const print = fingerprint(bytes);
    const twin = this.byPrint.get(print)?.find((image) => same(image.bytes, bytes));
    if (twin) return { id: twin.id };
    if (this.total + bytes.length > IMAGE_BYTES_PER_READ) return { why: WHY.perRead };
    this.total += bytes.length;
    const image = { id, bytes, ...info };
    this.kept.push(image);
    this.byPrint.set(print, [...(this.byPrint.get(print) ?? []), image]);
    return { id };
  }

  get images(): ImportedImage[] {
    return this.kept;
  }
}

/**
 * Base64 (Moodle's `<file encoding="base64">`) as bytes, or "too large" when it would decode to
 * more than `max` bytes: the length is judged before anything is decoded, and decoding is one pass.
 */
export function decodeBase64(text: string, max = IMAGE_MAX_BYTES): Uint8Array | "too large" | "invalid" {
  const compact = text.replace(/[\s]+/g, "");
  if (Math.floor((compact.length * 3) / 4) - 2 > max) return "too large";
  let binary: string;
  try {
    binary = atob(compact);
  } catch {
    return "invalid";
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** What became of an image a text named by a reserved id: kept under an asset id, or dropped with why. */
export type ImageOutcome = { id: string } | { why: string; name: string };

const ASSET_IN_SRC = /<img\b[^>]*\ssrc="\/v1\/assets\/(ast_[0-9a-z]{32})"[^>]*>/g;
const ASSET_PATH = /\/v1\/assets\/(ast_[0-9a-z]{32})/g;

/**
 * The items' texts once their images are settled (a package's files are read after its items):
 * a reserved id renamed to the asset that holds the same bytes, an image dropped removed from the
 * stored form (its `img` is one element of the sanitizer's serialization, whose attribute values
 * hold no ">") and named in the item's notes. One pass over each text.
 */
export function settleImages(items: ImportedItem[], outcomes: Map<string, ImageOutcome>): void {
  if (outcomes.size === 0) return;
  // A question read once and placed several times is settled once; each place gets its notes.
  const settled = new Map<QuestionInput, Set<string>>();
  for (const item of items) {
    const q = item.question;
    if (q?.content_format !== "html") continue;
    let dropped = settled.get(q);
    if (!dropped) {
      const notes = new Set<string>();
      dropped = notes;
      settled.set(q, notes);
      for (const field of contentFields(q as unknown as Record<string, unknown>)) {
        if (!field.value.includes("/v1/assets/")) continue;
        const next = field.value
          .replace(ASSET_IN_SRC, (tag, id: string) => {
            const outcome = outcomes.get(id);
            if (!outcome || !("why" in outcome)) return tag;
            notes.add(imageDropped(outcome.name, outcome.why));
            return "";
          })
          .replace(ASSET_PATH, (path, id: string) => {
            const outcome = outcomes.get(id);
            return outcome && "id" in outcome ? assetPath(outcome.id) : path;
          });
        field.replace(next);
      }
    }
    if (dropped.size === 0) continue;
    item.entry.notes.push(...dropped);
    if (item.entry.status === "imported") item.entry.status = "approximated";
  }
}
