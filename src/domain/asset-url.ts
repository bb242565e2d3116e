/**
 * What an asset of this service is called, in one place (CONTRACT §19): an id is `ast_` + 32
 * lower-case Crockford base32 characters of 160 random bits (the one exception to §1's ULIDs, so
 * that an id cannot be guessed: `GET /v1/assets/{id}` needs no credential), and an `img` may only
 * point at `/v1/assets/<id>` or the absolute URL of one. The sanitizer, the asset routes, the
 * reference table and the formats' readers and writers all ask this module.
 */

const ASSET_ID_PREFIX = "ast_";
/** Crockford's base32 alphabet, lower case: no i, l, o or u. */
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";
const ASSET_RANDOM_BITS = 160;
const ASSET_ID_LENGTH = ASSET_RANDOM_BITS / 5; // 32 characters, 5 bits each
const ASSET_ID_PATTERN = /^ast_[0-9abcdefghjkmnpqrstvwxyz]{32}$/;
/** The path an asset is served at, without the origin. */
const ASSET_PATH_PREFIX = "/v1/assets/";

export function generateAssetId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(ASSET_RANDOM_BITS / 8));
  let out = ASSET_ID_PREFIX;
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += CROCKFORD[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

export const isAssetId = (value: string): boolean =>
  value.length === ASSET_ID_PREFIX.length + ASSET_ID_LENGTH && ASSET_ID_PATTERN.test(value);

export const assetPath = (id: string): string => ASSET_PATH_PREFIX + id;

/**
 * The asset id an `img` `src` names, or null when it names anything else. Accepted: the path
 * `/v1/assets/<id>`, or the absolute `http(s)` URL of that path on `origin` (the service's own
 * origin, when known; without it any host is refused). No query, fragment, userinfo or extra
 * path segment: a `src` that is not exactly an asset is not an asset.
 */
export function assetIdFromSrc(src: string, origin?: string): string | null {
  const value = src.trim();
  let path: string;
  if (value.startsWith(ASSET_PATH_PREFIX)) {
    path = value;
  } else {
    if (origin === undefined) return null;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    if (url.origin !== new URL(origin).origin || url.username || url.password || url.search || url.hash) return null;
    if (value.length > url.origin.length + url.pathname.length) return null;
    path = url.pathname;
  }
  const id = path.slice(ASSET_PATH_PREFIX.length);
  return isAssetId(id) ? id : null;
}
