/**
 * QTI in: one item as XML, or an IMS content package (zip) whose imsmanifest.xml lists a test and
 * items (QTI 2.1, 2.2 or 3.0). With a test, its item references give the items and their order;
 * without one, the manifest's item resources do. A resource's LOM keywords become its tags.
 */
import { InterchangeError, unreadable } from "./errors";
import { readQtiItem } from "./qti-item";
import type { ImportedItem, ImportResult } from "./types";
import { child, decodeText, descendants, parseXml, textOf, type XmlElement } from "./xml";
import { readZip, scanZip } from "./zip";

const isQti3 = (text: string) => /<qti-assessment-(item|test)\b/.test(text);
const parseQti = (text: string) => parseXml(text, { qti3Names: isQti3(text) });

export function readQtiXml(bytes: Uint8Array): ImportResult {
  const root = parseQti(decodeText(bytes));
  if (root.name === "assessmentItem") return { format: "qti", items: [readQtiItem(root, { position: 1 })] };
  if (root.name === "assessmentTest")
    throw unreadable("A QTI test refers to its items' files: upload the content package (zip) that holds them.");
  throw unreadable(`Not a QTI item: the root element is <${root.name}>.`);
}

/** `href` resolved against the folder `base` ("a/b/"), or undefined when it climbs out of the package. */
function resolve(base: string, href: string): string | undefined {
  const parts: string[] = [];
  for (const segment of `${base}${safeDecode(href.split("#")[0] ?? "")}`.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (parts.pop() === undefined) return undefined;
    } else parts.push(segment);
  }
  return parts.join("/");
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const folderOf = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);

/**
 * A package is read in three passes over the zip, so that its memory is one entry at a time, not
 * the sum of its XML: every XML entry inflated and counted (a bomb is refused here) with only the
 * manifests kept; then the test; then the items, each parsed as it is inflated and dropped.
 */
export function readQtiPackage(bytes: Uint8Array): ImportResult {
  const manifests = new Map<string, Uint8Array>();
  scanZip(
    bytes,
    (name) => /\.xml$/i.test(name),
    (name, data) => {
      if (/(^|\/)imsmanifest\.xml$/i.test(name)) manifests.set(name, data);
    },
  );
  const manifestPath = [...manifests.keys()].sort((a, b) => a.length - b.length)[0];
  if (!manifestPath) throw unreadable("The zip is not an IMS content package: it has no imsmanifest.xml.");
  const manifest = parseXml(decodeText(manifests.get(manifestPath) as Uint8Array));
  manifests.clear();
  const root = folderOf(manifestPath);
  const resources = descendants(manifest, "resource");
  const hrefOf = (r: XmlElement) => resolve(root + folderBase(r), r.attrs.href ?? "");
  const tagsByPath = new Map<string, string[]>();
  for (const r of resources) {
    const path = hrefOf(r);
    const tags = descendants(r, "keyword")
      .map((k) => textOf(child(k, "string") ?? k).trim())
      .filter((t) => t !== "");
    if (path && tags.length > 0) tagsByPath.set(path, tags);
  }
  const test = resources.find((r) => /imsqti_test/i.test(r.attrs.type ?? ""));
  let title: string | undefined;
  let itemPaths: (string | undefined)[];
  if (test) {
    const path = hrefOf(test);
    const source = path ? readZip(bytes, (name) => name === path).get(path) : undefined;
    if (!path || !source) throw unreadable(`The manifest names the test "${test.attrs.href}", which the package does not hold.`);
    const t = parseQti(decodeText(source));
    title = t.attrs.title?.trim() || undefined;
    itemPaths = descendants(t, "assessmentItemRef").map((ref) => resolve(folderOf(path), ref.attrs.href ?? ""));
  } else {
    itemPaths = resources.filter((r) => /imsqti_item/i.test(r.attrs.type ?? "")).map(hrefOf);
  }
  title ??= textOf(descendants(descendants(manifest, "general")[0] ?? manifest, "title")[0]).trim() || undefined;
  if (itemPaths.length === 0) throw unreadable("The package lists no QTI items.");
  // Each item parsed as it is inflated, at every place the test refers to it.
  const positions = new Map<string, number[]>();
  itemPaths.forEach((path, i) => {
    if (path) positions.set(path, [...(positions.get(path) ?? []), i + 1]);
  });
  const read = new Map<number, ImportedItem>();
  scanZip(
    bytes,
    (name) => positions.has(name),
    (name, data) => {
      const source = decodeText(data);
      for (const position of positions.get(name) ?? []) read.set(position, readPackagedItem(name, source, position, tagsByPath));
    },
  );
  const items = itemPaths.map((path, i) => read.get(i + 1) ?? readPackagedItem(path, undefined, i + 1, tagsByPath));
  return { format: "qti", ...(title ? { title } : {}), items };
}

/** A resource's xml:base, if any, as a folder. */
const folderBase = (r: XmlElement) => {
  const base = r.attrs.base ?? "";
  return base === "" || base.endsWith("/") ? base : `${base}/`;
};

function readPackagedItem(
  path: string | undefined,
  source: string | undefined,
  position: number,
  tags: Map<string, string[]>,
): ImportedItem {
  const id = {
    source_id:
      path
        ?.split("/")
        .pop()
        ?.replace(/\.xml$/i, "") ?? String(position),
  };
  if (!path || source === undefined)
    return { entry: { ...id, status: "skipped", notes: [`Skipped: the item file "${path ?? "?"}" is not in the package.`] } };
  try {
    const root = parseQti(source);
    if (root.name !== "assessmentItem")
      return { entry: { ...id, status: "skipped", notes: [`Skipped: "${path}" is not a QTI item.`] } };
    return readQtiItem(root, { position, tags: tags.get(path) });
  } catch (error) {
    if (error instanceof InterchangeError && error.code === "unreadable_file")
      return { entry: { ...id, status: "skipped", notes: [`Skipped: ${error.detail}`] } };
    throw error;
  }
}
