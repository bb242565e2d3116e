/**
 * Safe XML reading on saxes (docs/security.md): a streaming parser that checks well-formedness in
 * one pass, reading each character once, and expands nothing. The reader stops at saxes's first
 * error, so no input makes it work past the point where the file stopped being XML, and every error
 * is an InterchangeError with its line. A DOCTYPE is refused on saxes's own doctype token, and a
 * `<!ENTITY` or a DOCTYPE inside the root where saxes reports that declaration (`unsafe_xml`): the
 * text `<!DOCTYPE` inside a comment, a CDATA section or an escaped attribute value is content, and a
 * raw `<` inside an attribute value is an error (no "comment" opens there to hide a declaration).
 * Only the five predefined entities and character references are decoded; any other reference is
 * an error, since no DTD is read to define it. Elements open at once, attributes per element, and
 * nodes (elements, attributes, texts) per document and per file are bounded (budget.ts), counted
 * from saxes's events as they come; attributes live in objects without a prototype, so `__proto__`
 * is a name like any other.
 */
import { SaxesParser, type SaxesTagPlain } from "saxes";
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

/** `imsmd:keyword` → `keyword`, `xml:base` → `base`: one prefix comes off, whatever namespace it stands for. */
const local = (name: string) => {
  const colon = name.indexOf(":");
  return colon >= 0 && colon === name.lastIndexOf(":") ? name.slice(colon + 1) : name;
};

/** The attributes of every element that has none: one frozen object, not one each (a document may hold 250 000 elements). */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze(Object.create(null));

/**
 * saxes's messages (6.0.0, pinned) that mean it met a declaration: a DOCTYPE after the root
 * element opened, and a `<!…` that is neither a comment, CDATA nor a DOCTYPE, reported at its
 * seventh character.
 */
const MISPLACED_DOCTYPE = "inappropriately located doctype declaration.";
const UNKNOWN_DECLARATION = "incorrect syntax.";
const UNDEFINED_ENTITY = "undefined entity.";
const DECLARATION_NAME_LENGTH = 7;

const unsafe = () =>
  new InterchangeError("unsafe_xml", "The XML has a DOCTYPE or entity declaration; such files are refused, not expanded.");

export interface ParseOptions {
  /** Rename QTI 3's kebab-case `qti-…` elements and attributes to their QTI 2 camel-case twins. */
  qti3Names?: boolean;
  /** The read's budget, charged one XML node per element, attribute and text. */
  budget?: WorkBudget;
}

/**
 * The root element of an XML document, names without namespace prefixes (and with `qti3Names`,
 * in QTI 2 form, so one reader serves both). Comments, processing instructions and the XML
 * declaration are skipped (a comment does not split the text around it); text and attribute
 * values are decoded, CDATA kept as written, line ends read as XML reads them (CR and CRLF as LF).
 */
export function parseXml(s: string, options: ParseOptions = {}): XmlElement {
  const rename = options.qti3Names ? camel : (name: string) => name;
  const parser = new SaxesParser();
  const malformed = (why: string) => unreadable(`Malformed XML at line ${parser.line}: ${why.replace(/\.$/, "")}.`);
  let nodes = 0;
  const counted = () => {
    if (++nodes > BUDGET.xmlNodesPerDocument)
      throw new InterchangeError(
        "too_complex",
        `An XML document of the file holds more than ${BUDGET.xmlNodesPerDocument.toLocaleString("en-US")} elements, attributes and texts.`,
      );
    options.budget?.spend("xmlNodes");
  };
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  // The text since the last element, CDATA section or processing instruction: saxes reports the
  // text on each side of a comment apart, and the tree keeps it whole.
  let text = "";
  const flush = () => {
    if (text === "") return;
    const top = stack[stack.length - 1];
    if (top) {
      counted();
      top.children.push(text);
    }
    text = "";
  };

  parser.on("error", (error) => {
    // saxes writes "line:column: message"; malformed() names the line from parser.line.
    const why = error.message.slice(error.message.indexOf(": ") + 2);
    if (why === MISPLACED_DOCTYPE) throw unsafe();
    if (why === UNKNOWN_DECLARATION) {
      // saxes has read `<!` and seven characters (at least seven code units) of the declaration.
      const start = s.lastIndexOf("<!", parser.position - DECLARATION_NAME_LENGTH - 2);
      if (/^<!(DOCTYPE|ENTITY)/i.test(s.slice(start, start + 2 + DECLARATION_NAME_LENGTH))) throw unsafe();
      throw malformed("a markup declaration (<!…) that is neither a comment nor CDATA");
    }
    if (why === UNDEFINED_ENTITY)
      throw malformed(
        "a reference to an undefined entity (only &lt; &gt; &amp; &quot; &apos; and character references are read)",
      );
    throw malformed(why);
  });
  parser.on("doctype", () => {
    throw unsafe();
  });
  parser.on("text", (t) => {
    // Outside the root element saxes reports white space only (anything else is its error).
    if (stack.length > 0) text += t;
  });
  parser.on("cdata", (cdata) => {
    flush();
    const top = stack[stack.length - 1];
    if (!top) throw malformed("a CDATA section outside the root element");
    counted();
    top.children.push(cdata);
  });
  parser.on("processinginstruction", flush);
  let attributeCount = 0;
  parser.on("opentagstart", () => {
    attributeCount = 0;
  });
  parser.on("attribute", () => {
    if (++attributeCount > BUDGET.xmlAttributesPerElement)
      throw malformed(`an element with more than ${BUDGET.xmlAttributesPerElement} attributes`);
    counted();
  });
  parser.on("opentag", (tag: SaxesTagPlain) => {
    flush();
    const element: XmlElement = { name: rename(local(tag.name)), attrs: attributes(tag.attributes, rename), children: [] };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else root ??= element;
    counted();
    if (!tag.isSelfClosing) {
      stack.push(element);
      if (stack.length > BUDGET.xmlDepth) throw malformed(`elements nested deeper than ${BUDGET.xmlDepth}`);
    }
  });
  parser.on("closetag", (tag: SaxesTagPlain) => {
    flush();
    if (!tag.isSelfClosing) stack.pop();
  });

  try {
    parser.write(s).close();
  } catch (error) {
    if (error instanceof InterchangeError) throw error;
    // saxes reports what it finds through the handler above; anything else it throws is still the file's doing.
    throw malformed("the parser stopped");
  }
  if (!root) throw unreadable("The XML has no root element.");
  return root;
}

/** saxes's attributes (an object without a prototype) under the reader's names, namespace declarations left out. */
function attributes(parsed: Record<string, string>, rename: (name: string) => string): Record<string, string> {
  let attrs = NO_ATTRIBUTES;
  for (const [name, value] of Object.entries(parsed)) {
    if (name === "xmlns" || name.startsWith("xmlns:")) continue;
    if (attrs === NO_ATTRIBUTES) attrs = Object.create(null) as Record<string, string>;
    attrs[rename(local(name))] = value;
  }
  return attrs;
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
