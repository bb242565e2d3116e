/**
 * Formatted text out (CONTRACT §19): a question in content_format "html" is written with its HTML,
 * its images and its MathML in each format's own way — QTI as XHTML in the item body with the
 * images as files of the package and MathML in the MathML namespace, Moodle XML as html texts with
 * `@@PLUGINFILE@@` images in base64 `<file>`s, GIFT as `[html]` texts naming the images by their
 * absolute URL. The images' bytes come from the caller (the export route reads them from R2).
 */
import { assetPath } from "../domain/asset-url";
import { textContent } from "../domain/content/text-content";
import { buildTree, type Element } from "../domain/content/tree";

/** An asset's bytes, as the export route read them. */
export interface ExportAsset {
  bytes: Uint8Array;
  mediaType: string;
}

/** What a writer may need besides the quiz: the service's origin and the bytes of the assets the questions show. */
export interface ExportContext {
  origin?: string;
  /** By asset id; an asset absent here (over the export's image budget) is referred to by its absolute URL. */
  assets?: ReadonlyMap<string, ExportAsset>;
}

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };

/** The file an asset is written as in a package or a Moodle text: its id and its format's extension. */
export const assetFileName = (id: string, mediaType: string) => `${id}.${EXTENSIONS[mediaType] ?? "bin"}`;

/** The absolute URL of an asset (GET /v1/assets/{id} needs no credential), or its path when the origin is unknown. */
export const assetUrl = (id: string, origin?: string) => `${origin ?? ""}${assetPath(id)}`;

const ASSET_SRC = /(<img\b[^>]*\ssrc=")\/v1\/assets\/(ast_[0-9a-z]{32})(")/g;

/**
 * A stored fragment with each asset `img`'s src as `src(id)` gives it. The stored form's `img` is the
 * sanitizer's serialization (attribute values double-quoted, no ">" in them), so a pattern finds it.
 */
export const withImageSources = (html: string, src: (id: string) => string) =>
  html.replace(ASSET_SRC, (_, before: string, id: string, after: string) => `${before}${src(id)}${after}`);

/** The asset ids a stored fragment's images name, in order, each once. */
export function imageIds(html: string): string[] {
  return [...new Set([...html.matchAll(ASSET_SRC)].map((m) => m[2] as string))];
}

/** A stored fragment's plain text (for places and formats that take only text). */
export const plainText = (html: string) => textContent(html);

const MATHML_NAMESPACE = "http://www.w3.org/1998/Math/MathML";
const VOID = new Set(["br", "hr", "img"]);
const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const xmlAttribute = (s: string) => xmlText(s).replace(/"/g, "&quot;");

/**
 * A stored fragment as XHTML, for a QTI item body: every element closed (`<br/>`), text and values
 * escaped for XML, `math` in the MathML namespace, and each asset `img`'s src as `src(id)` gives it.
 */
export function toXhtml(html: string, src: (id: string) => string): string {
  const root = buildTree(html, { assetPath: (s) => s }, new Set());
  const out: string[] = [];
  const walk = (element: Element) => {
    for (const node of element.children) {
      if (typeof node === "string") {
        out.push(xmlText(node));
        continue;
      }
      out.push(`<${node.name}`);
      if (node.name === "math") out.push(` xmlns="${MATHML_NAMESPACE}"`);
      for (const [name, value] of node.attributes) {
        const id = node.name === "img" && name === "src" ? /^\/v1\/assets\/(ast_[0-9a-z]{32})$/.exec(value)?.[1] : undefined;
        out.push(` ${name}="${xmlAttribute(id ? src(id) : value)}"`);
      }
      if (!node.math && VOID.has(node.name)) {
        out.push("/>");
        continue;
      }
      out.push(">");
      walk(node);
      out.push(`</${node.name}>`);
    }
  };
  walk(root);
  return out.join("");
}
