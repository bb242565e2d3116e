import { assetPath } from "../../domain/asset-url";
import { isImageMediaType } from "../../domain/image-format";
import { notFound } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/openapi";
import { toPage } from "../../lib/pagination";
import type * as routes from "./assets.routes";
import * as service from "./assets.service";

export const createAsset: AppRouteHandler<typeof routes.createAsset> = async (c) => {
  // The /v1 body guard has checked the media type is an image's and counts the bytes up to 5 MiB (413 past it).
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (!isImageMediaType(mediaType)) throw new Error("the body guard let another media type through");
  const { row, created } = await service.storeAsset(c.env, c.var.db, bytes, mediaType);
  c.header("Location", assetPath(row.id));
  return c.json(service.serializeAsset(row), created ? 201 : 200);
};

/**
 * The headers of an asset's bytes: cached by anyone for a year (the bytes of an id never change);
 * never sniffed, never run (a policy that allows nothing, should the bytes be opened as a page);
 * embeddable from any origin (the pages showing questions are often another site's).
 */
const servedHeaders = (sha256: string, mediaType: string) => ({
  "Cache-Control": "public, max-age=31536000, immutable",
  "Content-Security-Policy": "default-src 'none'",
  "X-Content-Type-Options": "nosniff",
  "Cross-Origin-Resource-Policy": "cross-origin",
  ETag: `"${sha256}"`,
  "Content-Type": mediaType,
});

/** Whether If-None-Match names this ETag (or is `*`): a comma-separated list of entity tags, weak or strong. */
const matches = (header: string | undefined, etag: string) =>
  header?.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });

export const getAssetFile: AppRouteHandler<typeof routes.getAssetFile> = async (c) => {
  const { id } = c.req.valid("param");
  const found = await service.readAsset(c.env, c.var.db, id);
  if (!found) throw notFound("Asset");
  const headers = servedHeaders(found.row.sha256, found.row.mediaType);
  if (matches(c.req.header("if-none-match"), headers.ETag)) {
    await found.body.cancel();
    return c.body(null, 304, headers);
  }
  return c.body(found.body, 200, { ...headers, "Content-Length": String(found.row.bytes) });
};

export const listQuizAssets: AppRouteHandler<typeof routes.listQuizAssets> = async (c) => {
  const { id } = c.req.valid("param");
  const { limit, cursor } = c.req.valid("query");
  const rows = await service.listQuizAssets(c.var.db, id, cursor, limit);
  const { items, nextCursor } = toPage(c, rows, limit, (row) => row.id);
  return c.json({ assets: items.map(service.serializeAsset), next_cursor: nextCursor }, 200);
};
