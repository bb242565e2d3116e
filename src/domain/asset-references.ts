import { isAssetId } from "./asset-url";

/** The asset path's fixed part, as written in a question's text (src/domain/asset-url.ts). */
const ASSET_PATH_PREFIX = "/v1/assets/";
/** `ast_` and 32 characters. */
const ASSET_ID_LENGTH = 36;
const ID_CHARACTER = /[0-9a-z]/;

/**
 * The asset ids a question's texts name, each once, in order of first mention: every
 * `/v1/assets/ast_…` (as a path, or in an absolute URL: an `img`'s `src` either way) whose id is
 * whole — not followed by another letter or digit. One left-to-right pass per text (indexOf
 * moves on from each mention), so the work is linear in the text.
 */
export function assetIdsIn(texts: readonly string[]): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    for (let at = text.indexOf(ASSET_PATH_PREFIX); at !== -1; at = text.indexOf(ASSET_PATH_PREFIX, at + 1)) {
      const start = at + ASSET_PATH_PREFIX.length;
      const id = text.slice(start, start + ASSET_ID_LENGTH);
      const next = text[start + ASSET_ID_LENGTH];
      if (isAssetId(id) && (next === undefined || !ID_CHARACTER.test(next))) found.add(id);
    }
  }
  return [...found];
}
