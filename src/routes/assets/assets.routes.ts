import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { IMAGE_MEDIA_TYPES } from "../../domain/image-format";
import { idSchema } from "../../lib/ids";
import { COMMON_ERRORS, defineRoute, errorResponses, jsonResponse } from "../../lib/openapi";
import {
  ASSET_BODY,
  ASSET_EXAMPLE,
  Asset,
  assetIdSchema,
  IMAGE_MEDIA_TYPES_TEXT,
  QuizAssetPage,
  QuizAssetsQuery,
} from "./assets.schemas";

const tags = ["Assets"];
const bodyErrors = errorResponses(413, 415);

export const createAsset = defineRoute({
  operationId: "createAsset",
  method: "post",
  path: "/",
  tags,
  ...scoped("quizzes:write", idempotent()),
  summary: "Upload an image for questions' HTML text",
  description: [
    `The image is the body, sent with its own Content-Type: ${IMAGE_MEDIA_TYPES_TEXT}, at most 5 MiB. Its format is checked from its bytes (the magic bytes, then the header its width and height are read from); bytes of another format, or a header that cannot be read, → 415, like any other Content-Type.`,
    "The same bytes are the same asset: uploading an image already stored answers 200 with the asset made the first time (same id, same created_at) and stores nothing; a new image answers 201. Either way Location is the asset's `url`, the `src` to give an `img` in HTML text.",
    "An asset is kept while any question refers to it (docs/assets.md).",
  ].join("\n\n"),
  request: { body: ASSET_BODY },
  responses: {
    200: jsonResponse(Asset, "These bytes were already stored: the asset they are.", ASSET_EXAMPLE),
    201: jsonResponse(Asset, "The new asset; Location is its url.", ASSET_EXAMPLE),
    ...errorResponses(400, ...COMMON_ERRORS),
    413: { ...bodyErrors[413], description: "The image is larger than 5 MiB." },
    415: {
      ...bodyErrors[415],
      description: `The body is not ${IMAGE_MEDIA_TYPES_TEXT}, or its bytes are not the format its Content-Type names.`,
    },
  },
});

/** What each format's bytes look like, as examples of the binary answer. */
const IMAGE_EXAMPLES: Record<(typeof IMAGE_MEDIA_TYPES)[number], string> = {
  "image/png": "(binary) A PNG image, its first bytes \\x89PNG\\r\\n\\x1a\\n, then its IHDR chunk (640 × 480).",
  "image/jpeg": "(binary) A JPEG image, its first bytes \\xff\\xd8\\xff, its size in its SOF segment.",
  "image/gif": "(binary) A GIF image, its first bytes GIF89a, then its logical screen (640 × 480).",
  "image/webp": "(binary) A WebP image, its first bytes RIFF, its size, WEBP, then a VP8, VP8L or VP8X chunk.",
};

const ASSET_HEADERS = {
  "Cache-Control": {
    schema: { type: "string" as const },
    description: "`public, max-age=31536000, immutable`: an asset's bytes never change.",
  },
  ETag: { schema: { type: "string" as const }, description: "The bytes' SHA-256 in hex, quoted." },
  "Content-Security-Policy": { schema: { type: "string" as const }, description: "`default-src 'none'`." },
  "X-Content-Type-Options": { schema: { type: "string" as const }, description: "`nosniff`." },
};

export const getAssetFile = defineRoute({
  operationId: "getAsset",
  method: "get",
  path: "/{id}",
  tags,
  security: [],
  summary: "An image's bytes (no credential)",
  description: [
    "Answers the image with its media type, to anyone: no credential is needed (one sent is not looked at), since an asset id is 160 random bits and cannot be guessed. Counted per client IP under the anonymous rate limit.",
    "Cacheable for a year by browsers and shared caches (`immutable`: the bytes of an id never change); `ETag` is the bytes' SHA-256, and `If-None-Match` with it answers 304. `HEAD` answers the same headers without the bytes. An unknown id (or one of another shape) → 404, not cached.",
  ].join("\n\n"),
  request: { params: z.object({ id: assetIdSchema }) },
  responses: {
    200: {
      description: "The image.",
      headers: ASSET_HEADERS,
      content: Object.fromEntries(
        IMAGE_MEDIA_TYPES.map((type) => [
          type,
          { schema: z.string().openapi({ format: "binary", example: IMAGE_EXAMPLES[type] }) },
        ]),
      ),
    },
    304: { description: "Not modified: If-None-Match named the ETag.", headers: ASSET_HEADERS },
    ...errorResponses(404, 429),
  },
});

export const listQuizAssets = defineRoute({
  operationId: "listQuizAssets",
  method: "get",
  path: "/{id}/assets",
  tags,
  ...scoped("quizzes:read"),
  summary: "List the assets a quiz's questions refer to",
  description:
    "Each asset whose url (`/v1/assets/ast_…`, or the absolute URL of one) appears in a text of one of the quiz's questions, once, in id order. Keyset pagination: pass `next_cursor` back as `cursor` until it is null.",
  request: { params: z.object({ id: idSchema("quiz") }), query: QuizAssetsQuery },
  responses: {
    200: jsonResponse(QuizAssetPage, "A page of assets."),
    ...errorResponses(400, 404, ...COMMON_ERRORS),
  },
});
