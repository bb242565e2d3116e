/**
 * QTI in: one item as XML, or an IMS content package (zip) whose imsmanifest.xml lists a test and
 * items (QTI 2.1, 2.2 or 3.0). With a test, its item references give the items and their order;
 * without one, the manifest's item resources do. A resource's LOM keywords become its tags.
 * More references than an import reads are refused before any item is read, and an item the test
 * refers to several times is read once (budget.ts).
 */

import { assetPath, generateAssetId } from "../../../domain/asset-url";
import { BUDGET, tooManyItems, type WorkBudget } from "../../budget";
import { InterchangeError, unreadable } from "../../errors";
import { IMAGE_MAX_BYTES, type ImageOutcome, ImageStore, settleImages, WHY } from "../../images";
import type { ImportedItem, ImportResult } from "../../types";
import { child, decodeText, descendants, parseXml, textOf, type XmlElement } from "../../xml";
import { readZip, scanZip } from "../../zip";
import { readQtiItem } from "./item";

const isQti3 = (text: string) => /<qti-assessment-(item|test)\b/.test(text);
const parseQti = (text: string, budget: WorkBudget) => parseXml(text, { qti3Names: isQti3(text), budget });

export function readQtiXml(bytes: Uint8Array, budget: WorkBudget): ImportResult<"qti"> {
  const root = parseQti(decodeText(bytes), budget);
  if (root.name === "assessmentItem") return { format: "qti", items: [readQtiItem(root, { position: 1, budget })] };
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
 * the sum of its XML: the manifests; then the test; then the items, each parsed as it is inflated
 * and dropped. Entries no pass wants are never inflated, and every byte inflated, over the three
 * passes, counts against one budget.
 */
export function readQtiPackage(bytes: Uint8Array, budget: WorkBudget): ImportResult<"qti"> {
  const manifests = new Map<string, Uint8Array>();
  scanZip(
    bytes,
    (name) => /(^|\/)imsmanifest\.xml$/i.test(name),
    (name, data) => manifests.set(name, data),
    budget,
  );
  const manifestPath = [...manifests.keys()].sort((a, b) => a.length - b.length)[0];
  if (!manifestPath) throw unreadable("The zip is not an IMS content package: it has no imsmanifest.xml.");
  const manifest = parseXml(decodeText(manifests.get(manifestPath) as Uint8Array), { budget });
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
    const source = path ? readZip(bytes, (name) => name === path, budget).get(path) : undefined;
    if (!path || !source) throw unreadable(`The manifest names the test "${test.attrs.href}", which the package does not hold.`);
    const t = parseQti(decodeText(source), budget);
    title = t.attrs.title?.trim() || undefined;
    const refs = descendants(t, "assessmentItemRef");
    if (refs.length > BUDGET.items) throw tooManyItems(`${refs.length} references to`);
    itemPaths = refs.map((ref) => resolve(folderOf(path), ref.attrs.href ?? ""));
  } else {
    itemPaths = resources.filter((r) => /imsqti_item/i.test(r.attrs.type ?? "")).map(hrefOf);
    if (itemPaths.length > BUDGET.items) throw tooManyItems(itemPaths.length);
  }
  title ??= textOf(descendants(descendants(manifest, "general")[0] ?? manifest, "title")[0]).trim() || undefined;
  if (itemPaths.length === 0) throw unreadable("The package lists no QTI items.");
  // Each item file read once, as it is inflated, with the first place the test refers to it.
  const first = new Map<string, number>();
  itemPaths.forEach((path, i) => {
    if (path && !first.has(path)) first.set(path, i + 1);
  });
  const read = new Map<string, Packaged>();
  const files = new PackageFiles();
  scanZip(
    bytes,
    (name) => first.has(name),
    (name, data) => read.set(name, readPackagedItem(name, decodeText(data), first.get(name) ?? 1, tagsByPath, budget, files)),
    budget,
  );
  const items = itemPaths.map((path, i) => {
    const once = path === undefined ? undefined : read.get(path);
    return once ? placed(once, i + 1) : readPackagedItem(path, undefined, i + 1, tagsByPath, budget, files).item;
  });
  const images = files.read(bytes, budget, items);
  return { format: "qti", ...(title ? { title } : {}), items, ...(images.length > 0 ? { images } : {}) };
}

/**
 * The package's image files the items show: each path an item's `img` names is given an asset id
 * while the items are read, then — a fourth pass, inflating only those entries, each kept only up
 * to 5 MiB — read as images, kept (the same bytes under one asset) or dropped with a note.
 */
class PackageFiles {
  private readonly ids = new Map<string, string>();

  /** The asset path an item's `img` src names, resolved against the item's folder; undefined for a URL or a path outside the package. */
  refer(itemPath: string, src: string): string | undefined {
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(src) || src.startsWith("/") || src.trim() === "") return undefined;
    const path = resolve(folderOf(itemPath), src);
    if (!path) return undefined;
    let id = this.ids.get(path);
    if (!id) {
      id = generateAssetId();
      this.ids.set(path, id);
    }
    return assetPath(id);
  }

  read(bytes: Uint8Array, budget: WorkBudget, items: ImportedItem[]) {
    if (this.ids.size === 0) return [];
    const store = new ImageStore();
    const outcomes = new Map<string, ImageOutcome>();
    const byPath = this.ids;
    scanZip(
      bytes,
      (name) => byPath.has(name),
      (name, data) => {
        const id = byPath.get(name) as string;
        const kept = store.add(data, id);
        outcomes.set(id, "why" in kept ? { why: kept.why, name } : kept);
      },
      budget,
      {
        keepAtMost: IMAGE_MAX_BYTES,
        onTooLarge: (name) => outcomes.set(byPath.get(name) as string, { why: WHY.tooLarge, name }),
      },
    );
    for (const [path, id] of byPath) if (!outcomes.has(id)) outcomes.set(id, { why: WHY.missing, name: path });
    settleImages(items, outcomes);
    return store.images;
  }
}

/** An item as read, and whether its source id is the place it was read at (the item has no identifier). */
interface Packaged {
  item: ImportedItem;
  positional: boolean;
}

/** An item read once, at another place the test refers to it: its own report entry, the question shared (nothing changes it). */
function placed({ item, positional }: Packaged, position: number): ImportedItem {
  const entry = { ...item.entry, notes: [...item.entry.notes] };
  if (positional) entry.source_id = String(position);
  return item.question ? { entry, question: item.question } : { entry };
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
  budget: WorkBudget,
  files: PackageFiles,
): Packaged {
  const id = {
    source_id:
      path
        ?.split("/")
        .pop()
        ?.replace(/\.xml$/i, "") ?? String(position),
  };
  const skipped = (note: string): Packaged => ({
    item: { entry: { ...id, status: "skipped", notes: [note] } },
    positional: false,
  });
  if (!path || source === undefined) return skipped(`Skipped: the item file "${path ?? "?"}" is not in the package.`);
  try {
    const root = parseQti(source, budget);
    if (root.name !== "assessmentItem") return skipped(`Skipped: "${path}" is not a QTI item.`);
    const image = (src: string) => files.refer(path, src);
    return { item: readQtiItem(root, { position, tags: tags.get(path), budget, image }), positional: !root.attrs.identifier };
  } catch (error) {
    if (error instanceof InterchangeError && error.code === "unreadable_file") return skipped(`Skipped: ${error.detail}`);
    throw error;
  }
}
