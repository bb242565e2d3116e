/**
 * Safe XML reading: a DOCTYPE or entity declaration is refused before the parser sees the text
 * (docs/import-export.md: nothing is expanded, so neither a billion-laughs bomb nor an external entity can
 * run), then fast-xml-parser checks well-formedness and builds an ordered tree with
 * processEntities off. Only the five predefined entities and character references are decoded,
 * here, after parsing.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { InterchangeError, unreadable } from "./errors";

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** The predefined entities and character references; any other reference stays as written. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref[0] !== "#") return PREDEFINED[ref] ?? whole;
    const code = ref[1] === "x" ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

export const escapeXml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Text of a file: UTF-8 (with or without BOM) or UTF-16 with a BOM; anything else is unreadable. */
export function decodeText(bytes: Uint8Array): string {
  const [a, b] = [bytes[0], bytes[1]];
  const encoding = a === 0xff && b === 0xfe ? "utf-16le" : a === 0xfe && b === 0xff ? "utf-16be" : "utf-8";
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw unreadable(`The file is not ${encoding === "utf-8" ? "UTF-8" : "UTF-16"} text.`);
  }
}

/** A DOCTYPE or ENTITY declaration outside comments and CDATA sections. */
const DECLARATION = /<!(DOCTYPE|ENTITY)/i;
const COMMENTS_AND_CDATA = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g;

function refuseDeclarations(text: string): void {
  if (DECLARATION.test(text) && DECLARATION.test(text.replace(COMMENTS_AND_CDATA, "")))
    throw new InterchangeError(
      "unsafe_xml",
      "The XML has a DOCTYPE or entity declaration; such files are refused, not expanded.",
    );
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  processEntities: false,
  htmlEntities: false,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  removeNSPrefix: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: "#cdata",
});

type Raw = Record<string, unknown>;

/** `qti-simple-choice` → `simpleChoice`, `response-identifier` → `responseIdentifier`: QTI 3 in QTI 2 names. */
const camel = (s: string) => s.replace(/^qti-/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function convert(raw: Raw[], rename: boolean): XmlNode[] {
  const out: XmlNode[] = [];
  for (const node of raw) {
    for (const [key, value] of Object.entries(node)) {
      if (key === ":@") continue;
      if (key === "#text") out.push(decodeEntities(String(value)));
      else if (key === "#cdata") for (const t of value as Raw[]) out.push(String(t["#text"] ?? ""));
      else {
        const attrs: Record<string, string> = {};
        for (const [k, v] of Object.entries((node[":@"] as Record<string, string>) ?? {}))
          attrs[rename ? camel(k) : k] = decodeEntities(String(v));
        out.push({ name: rename ? camel(key) : key, attrs, children: convert(value as Raw[], rename) });
      }
    }
  }
  return out;
}

/**
 * The root element of an XML document, names without namespace prefixes. `qti3Names` renames
 * QTI 3's kebab-case `qti-…` elements and attributes to their QTI 2 camel-case twins, so one
 * reader serves both.
 */
export function parseXml(text: string, options: { qti3Names?: boolean } = {}): XmlElement {
  refuseDeclarations(text);
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw unreadable(`Malformed XML at line ${valid.err.line}: ${valid.err.msg}`);
  const root = convert(parser.parse(text) as Raw[], options.qti3Names ?? false).find((n) => typeof n !== "string");
  if (!root) throw unreadable("The XML has no root element.");
  return root;
}

export const elements = (e: XmlElement, name?: string): XmlElement[] =>
  e.children.filter((c): c is XmlElement => typeof c !== "string" && (name === undefined || c.name === name));

export const child = (e: XmlElement | undefined, name: string): XmlElement | undefined => e && elements(e, name)[0];

/** Every descendant element named `name`, in document order. */
export function descendants(e: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of elements(e)) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

/** The concatenated text of an element and its descendants. */
export const textOf = (e: XmlElement | undefined): string =>
  e === undefined ? "" : e.children.map((c) => (typeof c === "string" ? c : textOf(c))).join("");
