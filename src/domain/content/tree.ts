import {
  DROPPED_WITH_CONTENT,
  ELEMENT_ATTRIBUTES,
  GLOBAL_ATTRIBUTES,
  HTML_ELEMENTS,
  MATHML_ATTRIBUTES,
  MATHML_ELEMENTS,
  TABLE_STRUCTURE,
  VOID_ELEMENTS,
} from "./allow-list";
import { type Attribute, type TokenSink, tokenize } from "./tokenizer";

/**
 * The tree the sanitizer keeps: only allow-listed elements and attributes, built from the tokens
 * with the few HTML tree-construction rules that decide where a browser would put them (a block
 * closes an open `p`, a new `li` closes the last, an `a` never nests, table parts only in tables,
 * MathML only inside `math` and HTML never inside it), so that the browser reading its
 * serialization builds this same tree (test/e2e/content-sanitize.test.ts compares them).
 */

export interface Element {
  name: string;
  math: boolean;
  attributes: Attribute[];
  children: Node[];
}
export type Node = Element | string;

/** At most this many elements open at once (CONTRACT §19); deeper is refused, not flattened (docs/content.md). */
export const MAX_NESTING = 64;

export class NestingTooDeep extends Error {
  constructor() {
    super(`The HTML nests more than ${MAX_NESTING} elements deep.`);
  }
}

export interface BuildOptions {
  /** The service's origin: an `img` may name an asset by its absolute URL there too. */
  origin?: string;
  /** Checks an `img` src; the asset rule of domain/asset-url, passed in so that this module stays about HTML. */
  assetPath: (src: string, origin?: string) => string | null;
}

/** An open element, or an element removed with its content whose end tag is still to come. */
interface Frame {
  name: string;
  element: Element | null;
}

const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);
const DIR_VALUES = new Set(["ltr", "rtl", "auto"]);
const SCOPE_VALUES = new Set(["row", "col", "rowgroup", "colgroup"]);
/** A small positive integer (width, height, colspan, rowspan): digits only, no sign or unit. */
const isCount = (value: string) => value.length > 0 && value.length <= 5 && [...value].every((c) => c >= "0" && c <= "9");
/** Start tags that close an open `p` (HTML's "close a p element"), among the elements kept. */
const CLOSES_P = new Set([
  "p",
  "div",
  "ul",
  "ol",
  "dl",
  "li",
  "dd",
  "dt",
  "blockquote",
  "pre",
  "figure",
  "figcaption",
  "table",
  "hr",
]);
/** HTML's "special" elements among those kept, which stop the search for an open `li`, `dd` or `dt`. */
const SPECIAL = new Set([
  "blockquote",
  "br",
  "caption",
  "dd",
  "dl",
  "dt",
  "figcaption",
  "figure",
  "hr",
  "img",
  "li",
  "ol",
  "pre",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);
/** Table cells and captions bound a search for an open `p` or `a`, as HTML's scopes and markers do. */
const CELL_BOUNDARY = new Set(["td", "th", "caption", "table"]);
const TABLE_PARTS = new Set(["caption", "thead", "tbody", "tfoot", "tr", "td", "th"]);
/** Elements a void HTML start tag stands for inside removed content (no end tag to wait for). */
const HTML_VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

/** The kept tree of `input`, and the names of what was removed (element names, `element@attribute`, `#comment`, `#text`). */
export function buildTree(input: string, options: BuildOptions, removed: Set<string>): Element {
  const root: Element = { name: "#root", math: false, attributes: [], children: [] };
  const stack: Frame[] = [{ name: "#root", element: root }];
  const top = () => stack[stack.length - 1] as Frame;
  /** The innermost kept element. */
  const current = (): Element => {
    for (let i = stack.length - 1; ; i--) {
      const element = (stack[i] as Frame).element;
      if (element) return element;
    }
  };
  const discarding = () => top().element === null;
  const push = (frame: Frame) => {
    if (stack.length > MAX_NESTING) throw new NestingTooDeep();
    stack.push(frame);
  };
  const open = (name: string, math: boolean, attributes: Attribute[]): Element => {
    const element: Element = { name, math, attributes, children: [] };
    current().children.push(element);
    push({ name, element });
    return element;
  };
  /** Pops up to and including stack[index]. */
  const popTo = (index: number) => {
    stack.length = index;
  };
  /** The index of the innermost open `name` before a frame in `boundary`, or -1. */
  const find = (name: string, boundary: ReadonlySet<string>): number => {
    for (let i = stack.length - 1; i > 0; i--) {
      const frameName = (stack[i] as Frame).name;
      if (frameName === name) return i;
      if (boundary.has(frameName)) return -1;
    }
    return -1;
  };
  const inMath = () => current().math;
  const closeP = () => {
    const p = find("p", CELL_BOUNDARY);
    if (p !== -1) popTo(p);
  };

  const attributesOf = (name: string, math: boolean, given: Attribute[]): Attribute[] | null => {
    const kept: Attribute[] = [];
    const own = ELEMENT_ATTRIBUTES[name];
    for (const [attribute, value] of given) {
      let keep: string | null = null;
      if (GLOBAL_ATTRIBUTES.has(attribute)) keep = attribute !== "dir" || DIR_VALUES.has(value.toLowerCase()) ? value : null;
      else if (math)
        keep = MATHML_ATTRIBUTES.has(attribute) || (attribute === "encoding" && name === "annotation") ? value : null;
      else if (own?.has(attribute)) keep = checkedValue(attribute, value, options);
      if (keep === null) removed.add(`${name}@${attribute}`);
      else kept.push([attribute, keep]);
    }
    if (name === "a") {
      if (!kept.some(([attribute]) => attribute === "href")) return null;
      kept.push(["rel", "noopener noreferrer"], ["target", "_blank"]);
    }
    if (name === "img" && !kept.some(([attribute]) => attribute === "src")) return null;
    return kept;
  };

  /** Removes `name` with its content: its tokens up to its end tag are dropped. */
  const dropWithContent = (name: string, selfClosing: boolean) => {
    removed.add(name);
    if (!selfClosing && !HTML_VOID.has(name)) push({ name, element: null });
  };

  /** A table part at the innermost open table structure, with the parts the browser would imply (tbody, tr). */
  const tablePart = (name: string, attributes: Attribute[]) => {
    let at = -1;
    for (let i = stack.length - 1; i > 0; i--) {
      const frameName = (stack[i] as Frame).name;
      if (TABLE_STRUCTURE.has(frameName)) {
        at = i;
        break;
      }
      if ((stack[i] as Frame).element?.math) break;
    }
    if (at === -1) {
      // Outside any table the browser ignores the tag (its content stays): so do we.
      removed.add(name);
      return;
    }
    popTo(at + 1);
    for (;;) {
      const parent = top().name;
      if (parent === "table") {
        if (name === "caption" || name === "thead" || name === "tbody" || name === "tfoot")
          return void open(name, false, attributes);
        open("tbody", false, []);
      } else if (parent === "tr") {
        if (name === "td" || name === "th") return void open(name, false, attributes);
        popTo(stack.length - 1);
      } else {
        // thead, tbody, tfoot
        if (name === "tr") return void open(name, false, attributes);
        if (name === "td" || name === "th") open("tr", false, []);
        else popTo(stack.length - 1);
      }
    }
  };

  const sink: TokenSink = {
    comment: () => removed.add("#comment"),
    rawText: (name) => removed.add(name),
    text(text) {
      if (discarding()) return;
      const parent = current();
      if (TABLE_STRUCTURE.has(parent.name)) {
        // Text in a table but outside its cells is moved out of the table by the browser: removed here.
        if (!isWhiteSpace(text)) removed.add("#text");
        return;
      }
      let value = text;
      // The browser drops a line feed right after <pre>; dropping all of them keeps its reading the same.
      if (parent.name === "pre" && parent.children.length === 0) value = value.replace(/^\n+/, "");
      if (value === "") return;
      const last = parent.children[parent.children.length - 1];
      if (typeof last === "string") parent.children[parent.children.length - 1] = last + value;
      else parent.children.push(value);
    },
    startTag(name, attributes, selfClosing) {
      if (discarding()) return dropWithContent(name, selfClosing);
      if (DROPPED_WITH_CONTENT.has(name)) return dropWithContent(name, selfClosing);
      const parent = current();
      if (TABLE_STRUCTURE.has(parent.name) && !TABLE_PARTS.has(name)) return dropWithContent(name, selfClosing);
      if (parent.math) {
        if (!MATHML_ELEMENTS.has(name) || name === "math" || parent.name === "annotation") return void removed.add(name);
        const kept = attributesOf(name, true, attributes) as Attribute[];
        if (selfClosing) parent.children.push({ name, math: true, attributes: kept, children: [] });
        else open(name, true, kept);
        return;
      }
      if (name === "math") return void open(name, true, attributesOf(name, true, attributes) as Attribute[]);
      if (!HTML_ELEMENTS.has(name)) return void removed.add(name);
      if (TABLE_PARTS.has(name)) {
        const kept = attributesOf(name, false, attributes) as Attribute[];
        return tablePart(name, kept);
      }
      const kept = attributesOf(name, false, attributes);
      if (kept === null) return void removed.add(name);
      if (name === "li" || name === "dd" || name === "dt") {
        const same = name === "li" ? ["li"] : ["dd", "dt"];
        for (let i = stack.length - 1; i > 0; i--) {
          const frameName = (stack[i] as Frame).name;
          if (same.includes(frameName)) {
            popTo(i);
            break;
          }
          if (SPECIAL.has(frameName) && frameName !== "div" && frameName !== "p") break;
        }
      }
      if (CLOSES_P.has(name)) closeP();
      if (name === "a") {
        const a = find("a", CELL_BOUNDARY);
        if (a !== -1) popTo(a);
      }
      if (VOID_ELEMENTS.has(name)) current().children.push({ name, math: false, attributes: kept, children: [] });
      else open(name, false, kept);
    },
    endTag(name) {
      if (discarding()) {
        // Inside removed content only the removed elements' own end tags count.
        for (let i = stack.length - 1; (stack[i] as Frame).element === null; i--) {
          if ((stack[i] as Frame).name === name) return popTo(i);
        }
        return;
      }
      if (name === "br" && !discarding() && !inMath() && !TABLE_STRUCTURE.has(current().name)) {
        // `</br>` is read as `<br>` by browsers.
        current().children.push({ name: "br", math: false, attributes: [], children: [] });
        return;
      }
      // Table parts and `math` close what they hold; anything else closes only within its cell or its `math`.
      const boundary =
        TABLE_PARTS.has(name) || name === "table" || name === "math" ? NO_BOUNDARY : inMath() ? MATH_BOUNDARY : CELL_BOUNDARY;
      const at = find(name, boundary);
      if (at !== -1) popTo(at);
    },
  };
  tokenize(input, sink);
  return root;
}

const NO_BOUNDARY: ReadonlySet<string> = new Set();
const MATH_BOUNDARY: ReadonlySet<string> = new Set(["math"]);

const isWhiteSpace = (s: string) => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 9 && c !== 10 && c !== 12 && c !== 13 && c !== 32) return false;
  }
  return true;
};

/** An attribute's value as kept, or null when it is removed: links only to http(s) and mailto, images only assets. */
function checkedValue(attribute: string, value: string, options: BuildOptions): string | null {
  if (attribute === "href") {
    let url: URL;
    try {
      // Absolute URLs only: a relative one would depend on the page that shows it.
      url = new URL(value);
    } catch {
      return null;
    }
    return LINK_SCHEMES.has(url.protocol) ? url.href : null;
  }
  if (attribute === "src") return options.assetPath(value, options.origin);
  if (attribute === "width" || attribute === "height" || attribute === "colspan" || attribute === "rowspan")
    return isCount(value.trim()) ? value.trim() : null;
  if (attribute === "scope") return SCOPE_VALUES.has(value.toLowerCase()) ? value.toLowerCase() : null;
  return value;
}

const escapeText = (s: string) => s.replace(/[&<>\u00a0]/g, (c) => ESCAPES[c] as string);
const escapeAttribute = (s: string) => s.replace(/[&<>"\u00a0]/g, (c) => ESCAPES[c] as string);
const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\u00a0": "&nbsp;" };

/** The tree's children as HTML: attribute values double-quoted, text and values escaped; nesting checked. */
export function serialize(element: Element, depth = 0): string {
  let out = "";
  for (const child of element.children) {
    if (typeof child === "string") {
      out += escapeText(child);
      continue;
    }
    if (depth + 1 > MAX_NESTING) throw new NestingTooDeep();
    out += `<${child.name}`;
    for (const [name, value] of child.attributes) out += ` ${name}="${escapeAttribute(value)}"`;
    out += ">";
    if (!child.math && VOID_ELEMENTS.has(child.name)) continue;
    out += `${serialize(child, depth + 1)}</${child.name}>`;
  }
  return out;
}
