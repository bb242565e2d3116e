import { isZip } from "../zip";
import type { FileStart } from "./format";

/**
 * How much of an upload the request reads to tell its format: the request path stays cheap however
 * large or hostile the file (docs/import-export.md). A file whose marks come later is recognised
 * by naming its `format`.
 */
export const RECOGNISE_PREFIX_BYTES = 64 * 1024;

/** The start of a file as text, a character cut at the end left out; undefined when it is not UTF-8 or UTF-16. */
function prefixText(bytes: Uint8Array): string | undefined {
  const [a, b] = [bytes[0], bytes[1]];
  const encoding = a === 0xff && b === 0xfe ? "utf-16le" : a === 0xfe && b === 0xff ? "utf-16be" : "utf-8";
  try {
    // `stream: true` leaves out a sequence cut by the prefix's end instead of calling it malformed.
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(bytes.subarray(0, RECOGNISE_PREFIX_BYTES), {
      stream: true,
    });
  } catch {
    return undefined;
  }
}

const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\n" || c === "\r";

/** Where the construct at `i` (a PI, comment or DOCTYPE) ends, -1 when it does not end in the text, undefined when `i` starts none. */
function prologEnd(text: string, i: number): number | undefined {
  if (text.startsWith("<?", i)) return after(text, "?>", i + 2);
  if (text.startsWith("<!--", i)) return after(text, "-->", i + 4);
  if (!/^<!DOCTYPE/i.test(text.slice(i, i + 9))) return undefined;
  const gt = text.indexOf(">", i);
  const bracket = text.indexOf("[", i);
  if (bracket < 0 || (gt >= 0 && gt < bracket)) return gt < 0 ? -1 : gt + 1;
  // An internal subset: "]", then white space and ">".
  const end = text.indexOf("]", bracket);
  if (end < 0) return -1;
  let j = end + 1;
  while (isSpace(text[j])) j++;
  return text[j] === ">" ? j + 1 : -1;
}

const after = (text: string, marker: string, from: number) => {
  const end = text.indexOf(marker, from);
  return end < 0 ? -1 : end + marker.length;
};

/**
 * The root element's name, past white space, the XML declaration, comments, processing
 * instructions and a DOCTYPE (refused later, by the reader); undefined when the text does not
 * start as XML or its root lies past the prefix. Each construct is skipped with one indexOf.
 */
function rootName(text: string): string | undefined {
  let i = 0;
  for (;;) {
    while (isSpace(text[i])) i++;
    if (text[i] !== "<") return undefined;
    const end = prologEnd(text, i);
    if (end === undefined) break;
    if (end < 0) return undefined;
    i = end;
  }
  const name = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(i, i + 256))?.[1];
  return name?.slice(name.lastIndexOf(":") + 1);
}

/**
 * What recognising reads of an upload's start: whether it is a zip, else its XML root, else (when
 * it was not sent as XML either) its text and lines; undefined when it is neither a zip nor
 * UTF-8 or UTF-16 text.
 */
export function fileStart(bytes: Uint8Array, mediaType: string): FileStart | undefined {
  if (isZip(bytes)) return { zip: true };
  const text = prefixText(bytes)?.replace(/^\ufeff/, "");
  if (text === undefined) return undefined;
  const root = rootName(text);
  if (root || /xml/.test(mediaType)) return { zip: false, ...(root ? { root } : {}) };
  return { zip: false, plain: { text, lines: text.split(/\r\n|\r|\n/).map((l) => l.trim()) } };
}
