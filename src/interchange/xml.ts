/**
 * Safe XML reading, in one linear pass of our own (docs/security.md): the tokenizer steps from
 * one `<` to the next with `indexOf`, so no input makes it backtrack. A DOCTYPE or entity
 * declaration is refused when the tokenizer meets one as markup (`unsafe_xml`): the text
 * `<!DOCTYPE` inside a comment, a CDATA section or an attribute value is content, and no
 * comment can open inside an attribute value to hide one. Nothing is ever expanded: only the five
 * predefined entities and character references are decoded. Elements open at once, nodes per
 * document and nodes per file are bounded (budget.ts); attributes live in objects without a
 * prototype, so `__proto__` is a name like any other. Every failure is an InterchangeError.
 */
import { BUDGET, type WorkBudget } from "./budget";
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
  if (!s.includes("&")) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref[0] !== "#") return Object.hasOwn(PREDEFINED, ref) ? (PREDEFINED[ref] as string) : whole;
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

/** `qti-simple-choice` → `simpleChoice`, `response-identifier` → `responseIdentifier`: QTI 3 in QTI 2 names. */
const camel = (s: string) => s.replace(/^qti-/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** `imsmd:keyword` → `keyword`, `xml:base` → `base`: one prefix comes off (fast-xml-parser's removeNSPrefix, which this replaced). */
const local = (name: string) => {
  const colon = name.indexOf(":");
  return colon >= 0 && colon === name.lastIndexOf(":") ? name.slice(colon + 1) : name;
};

/** The attributes of every element that has none: one frozen object, not one each (a document may hold 250 000 elements). */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze(Object.create(null));

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** XML's name characters, with every character past ASCII allowed (the reader needs no finer rule). */
const isNameStart = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x3a || c >= 0x80;
const isNameChar = (c: number) => isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e;

export interface ParseOptions {
  /** Rename QTI 3's kebab-case `qti-…` elements and attributes to their QTI 2 camel-case twins. */
  qti3Names?: boolean;
  /** The read's budget, charged one XML node per element and text. */
  budget?: WorkBudget;
}

/**
 * The root element of an XML document, names without namespace prefixes (and with `qti3Names`,
 * in QTI 2 form, so one reader serves both). Comments, processing instructions and the XML
 * declaration are skipped; text is decoded, CDATA kept as written.
 */
export function parseXml(s: string, options: ParseOptions = {}): XmlElement {
  const rename = options.qti3Names ? camel : (name: string) => name;
  const n = s.length;
  const at = (position: number) => {
    let line = 1;
    for (let i = s.indexOf("\n"); i >= 0 && i < position; i = s.indexOf("\n", i + 1)) line++;
    return line;
  };
  const fail = (position: number, why: string): never => {
    throw unreadable(`Malformed XML at line ${at(position)}: ${why}.`);
  };
  let nodes = 0;
  const counted = () => {
    if (++nodes > BUDGET.xmlNodesPerDocument)
      throw new InterchangeError(
        "too_complex",
        `An XML document of the file holds more than ${BUDGET.xmlNodesPerDocument.toLocaleString("en-US")} elements and texts.`,
      );
    options.budget?.spend("xmlNodes");
  };
  const stack: { element: XmlElement; raw: string; start: number }[] = [];
  let root: XmlElement | undefined;
  let text = "";
  let textStart = 0;
  const flush = () => {
    if (text === "") return;
    const top = stack[stack.length - 1];
    if (top) {
      counted();
      top.element.children.push(decodeEntities(text));
    } else if (/\S/.test(text)) fail(textStart, "text outside the root element");
    text = "";
  };
  const readName = (from: number): number => {
    if (!isNameStart(s.charCodeAt(from))) fail(from, "a name was expected");
    let i = from + 1;
    while (i < n && isNameChar(s.charCodeAt(i))) i++;
    return i;
  };
  const skipSpace = (from: number) => {
    let i = from;
    while (i < n && isSpace(s.charCodeAt(i))) i++;
    return i;
  };
  const closing = (marker: string, from: number, what: string) => {
    const end = s.indexOf(marker, from);
    if (end < 0) fail(from, `an unclosed ${what}`);
    return end;
  };

  let i = s.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < n) {
    const lt = s.indexOf("<", i);
    if (text === "") textStart = i;
    text += s.slice(i, lt < 0 ? n : lt);
    if (lt < 0) break;
    const next = s.charCodeAt(lt + 1);
    if (next === 0x21 /* ! */) {
      if (s.startsWith("<!--", lt)) {
        i = closing("-->", lt + 4, "comment") + 3;
        continue;
      }
      if (s.startsWith("<![CDATA[", lt)) {
        const end = closing("]]>", lt + 9, "CDATA section");
        flush();
        const top = stack[stack.length - 1];
        if (!top) fail(lt, "a CDATA section outside the root element");
        counted();
        top?.element.children.push(s.slice(lt + 9, end));
        i = end + 3;
        continue;
      }
      if (/^(DOCTYPE|ENTITY)/i.test(s.slice(lt + 2, lt + 9)))
        throw new InterchangeError(
          "unsafe_xml",
          "The XML has a DOCTYPE or entity declaration; such files are refused, not expanded.",
        );
      fail(lt, "a markup declaration (<!…) that is neither a comment nor CDATA");
    }
    if (next === 0x3f /* ? */) {
      const end = closing("?>", lt + 2, "processing instruction");
      flush();
      i = end + 2;
      continue;
    }
    flush();
    if (next === 0x2f /* / */) {
      const end = readName(lt + 2);
      const raw = s.slice(lt + 2, end);
      const gt = skipSpace(end);
      if (s.charCodeAt(gt) !== 0x3e) fail(gt, `the end tag </${raw}> is not closed by ">"`);
      const open = stack.pop();
      if (!open) fail(lt, `the end tag </${raw}> closes no element`);
      if (open?.raw !== raw) fail(lt, `</${raw}> closes <${open?.raw}>`);
      i = gt + 1;
      continue;
    }
    // A start tag: its name, then attributes until ">" or "/>".
    const nameEnd = readName(lt + 1);
    const raw = s.slice(lt + 1, nameEnd);
    const element: XmlElement = { name: rename(local(raw)), attrs: NO_ATTRIBUTES, children: [] };
    let seen: Set<string> | undefined;
    let j = nameEnd;
    let selfClosing = false;
    for (;;) {
      const before = j;
      j = skipSpace(j);
      const c = s.charCodeAt(j);
      if (c === 0x3e) break;
      if (c === 0x2f && s.charCodeAt(j + 1) === 0x3e) {
        selfClosing = true;
        j++;
        break;
      }
      if (j >= n) fail(lt, `the tag <${raw}> is not closed`);
      if (j === before) fail(j, `white space is needed between the attributes of <${raw}>`);
      const attrEnd = readName(j);
      const attr = s.slice(j, attrEnd);
      j = skipSpace(attrEnd);
      if (s.charCodeAt(j) !== 0x3d) fail(j, `the attribute ${attr} of <${raw}> has no value`);
      j = skipSpace(j + 1);
      const quote = s[j];
      if (quote !== '"' && quote !== "'") fail(j, `the value of ${attr} is not quoted`);
      const valueEnd = closing(quote as string, j + 1, `value of the attribute ${attr}`);
      seen ??= new Set();
      if (seen.has(attr)) fail(j, `the attribute ${attr} is repeated`);
      seen.add(attr);
      if (element.attrs === NO_ATTRIBUTES) element.attrs = Object.create(null) as Record<string, string>;
      if (attr !== "xmlns" && !attr.startsWith("xmlns:"))
        element.attrs[rename(local(attr))] = decodeEntities(s.slice(j + 1, valueEnd));
      j = valueEnd + 1;
    }
    i = j + 1;
    const parent = stack[stack.length - 1];
    if (parent) parent.element.children.push(element);
    else if (root) fail(lt, "a second root element");
    else root = element;
    counted();
    if (!selfClosing) {
      stack.push({ element, raw, start: lt });
      if (stack.length > BUDGET.xmlDepth) fail(lt, `elements nested deeper than ${BUDGET.xmlDepth}`);
    }
  }
  flush();
  const open = stack.pop();
  if (open) fail(open.start, `<${open.raw}> is not closed`);
  if (!root) throw unreadable("The XML has no root element.");
  return root;
}

export const elements = (e: XmlElement, name?: string): XmlElement[] =>
  e.children.filter((c): c is XmlElement => typeof c !== "string" && (name === undefined || c.name === name));

export const child = (e: XmlElement | undefined, name: string): XmlElement | undefined =>
  e?.children.find((c): c is XmlElement => typeof c !== "string" && c.name === name);

/** Every descendant element named `name`, in document order. */
export function descendants(e: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of e.children) {
    if (typeof c === "string") continue;
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

/** The concatenated text of an element and its descendants (each text copied once, however deep). */
export function textOf(e: XmlElement | undefined): string {
  if (e === undefined) return "";
  const [only] = e.children;
  if (e.children.length === 1 && typeof only === "string") return only;
  const parts: string[] = [];
  collectText(e, parts);
  return parts.join("");
}

function collectText(e: XmlElement, parts: string[]): void {
  for (const c of e.children) {
    if (typeof c === "string") parts.push(c);
    else collectText(c, parts);
  }
}
