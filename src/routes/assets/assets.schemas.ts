import { z } from "@hono/zod-openapi";
import { isAssetId } from "../../domain/asset-url";
import { IMAGE_MEDIA_TYPES } from "../../domain/image-format";
import { pageExample } from "../../lib/openapi";
import { nextCursorSchema, pageQuery } from "../../lib/pagination";

/** An image is at most 5 MiB (docs/assets.md), counted while it streams. */
const ASSET_MAX_BYTES = 5 * 1024 * 1024;

/** The body rules of POST /v1/assets, which the /v1 body guard applies instead of JSON's (src/app.ts). */
export const ASSET_UPLOAD = { mediaTypes: IMAGE_MEDIA_TYPES, maxBytes: ASSET_MAX_BYTES, limitText: "5 MiB" } as const;

/** The media types an asset may have, as a sentence lists them. */
export const IMAGE_MEDIA_TYPES_TEXT = `${IMAGE_MEDIA_TYPES.slice(0, -1).join(", ")} or ${IMAGE_MEDIA_TYPES.at(-1)}`;

const ASSET_ID_EXAMPLE = "ast_7m2k9q4r8t1v5x3z6b0c2d4f6g8h0j1n";

/** An asset id: a path id of another shape answers 404, like every id (src/lib/validation.ts). */
export const assetIdSchema = z.string().refine(isAssetId, "Not an asset id.").openapi({
  pattern: "^ast_[0-9abcdefghjkmnpqrstvwxyz]{32}$",
  minLength: 36,
  maxLength: 36,
  description: "`ast_` and 32 lower-case Crockford base32 characters (160 random bits): not a ULID.",
  example: ASSET_ID_EXAMPLE,
});

export const ASSET_EXAMPLE = {
  id: ASSET_ID_EXAMPLE,
  url: `/v1/assets/${ASSET_ID_EXAMPLE}`,
  media_type: "image/png" as const,
  bytes: 48213,
  width: 640,
  height: 480,
  sha256: "9f2c4d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e",
  created_at: "2026-11-21T10:00:00.000Z",
};

export const Asset = z
  .object({
    id: assetIdSchema,
    url: z.string().openapi({
      description: "Where the image is served, without credentials: the path to write as an `img`'s `src` in HTML text.",
      example: ASSET_EXAMPLE.url,
    }),
    media_type: z.enum(IMAGE_MEDIA_TYPES).openapi({ description: "The format the bytes are (by their magic bytes)." }),
    bytes: z.number().int().openapi({ description: "The size of the image in bytes.", example: ASSET_EXAMPLE.bytes }),
    width: z.number().int().openapi({ description: "Pixels across, read from the image's header.", example: 640 }),
    height: z.number().int().openapi({ description: "Pixels down, read from the image's header.", example: 480 }),
    sha256: z.string().openapi({
      description: "Lower-case hex SHA-256 of the bytes; the ETag it is served with.",
      example: ASSET_EXAMPLE.sha256,
    }),
    created_at: z.string().datetime(),
  })
  .openapi("Asset", { example: ASSET_EXAMPLE });

/** The image's bytes; maxLength states the 5 MiB limit (the guard counts bytes, not characters). */
const image = (type: string) => ({
  schema: z.string().openapi({ format: "binary", maxLength: ASSET_MAX_BYTES, description: `The image, as ${type} bytes.` }),
});

export const ASSET_BODY = {
  required: true,
  description: "The image itself, at most 5 MiB; its Content-Type says its format, and the bytes must be that format.",
  content: Object.fromEntries(IMAGE_MEDIA_TYPES.map((type) => [type, image(type)])),
};

export const QuizAssetsQuery = z.strictObject(pageQuery({ isKey: isAssetId }));

export const QuizAssetPage = z
  .object({ assets: z.array(Asset), next_cursor: nextCursorSchema })
  .openapi({ example: pageExample("assets", [ASSET_EXAMPLE], ASSET_EXAMPLE.id) });
