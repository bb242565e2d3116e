import { assetIdFromSrc, assetPath } from "../asset-url";
import { buildTree, type Element, type Node, serialize } from "./tree";

/**
 * CONTRACT §19's rule for formatted text, as one plain function: an HTML fragment in, the fragment
 * as stored out — only the allow-list's elements and attributes (allow-list.ts), re-serialized
 * (every attribute double-quoted and escaped, every element closed), TeX between `\(`…`\)` or
 * `\[`…`\]` turned into MathML, and the names of what was removed, for an import's notes.
 * Sanitizing what it returns gives the same string back.
 */

export interface SanitizeOptions {
  /** The service's origin: an `img` src may be the absolute URL of an asset there (stored as its path). */
  origin?: string;
  /** TeX to MathML (tex.ts's loadTex); without it TeX stays as written. */
  tex?: TexRenderer;
}

export interface Sanitized {
  html: string;
  /** What was removed, each once, in the order met: element names, `element@attribute`, `#comment`, `#text`. */
  removed: string[];
}

/** TeX in, a MathML `math` element as HTML out (KaTeX's), or null when the TeX does not parse. */
export type TexRenderer = (tex: string, display: boolean) => string | null;

/** An img src that names an asset of this service, as the path it is stored as. */
const assetSrc = (src: string, origin?: string) => {
  const id = assetIdFromSrc(src, origin);
  return id === null ? null : assetPath(id);
};

/** Control characters a browser would read otherwise (CR as LF) or that no text holds (the rest of Cc but tab and LF). */
/** Cc but tab (U+0009) and line feed (U+000A). */
const CONTROL_BUT_TAB_AND_LF = /(?![\t\n])\p{Cc}/gu;
const normalizeInput = (input: string) => input.replace(/\r\n?/g, "\n").replace(CONTROL_BUT_TAB_AND_LF, "");

/** The fragment as stored. Throws NestingTooDeep past MAX_NESTING levels. */
export function sanitizeHtml(input: string, options: SanitizeOptions = {}): Sanitized {
  const removed = new Set<string>();
  const root = buildTree(normalizeInput(input), { origin: options.origin, assetPath: assetSrc }, removed);
  if (options.tex) convertTex(root, options.tex);
  return { html: serialize(root), removed: [...removed] };
}

/** Whether `input` may hold TeX for `tex` to convert (so a caller loads KaTeX only then). */
export const mayHoldTex = (input: string) => input.includes("\\(") || input.includes("\\[");

/** Text in these elements is shown as written: no TeX is read there. */
const LITERAL = new Set(["code", "pre", "kbd"]);
/** A TeX source longer than this stays text: KaTeX's time grows with it, and no formula is that long. */
const MAX_TEX_CHARS = 4000;

/** Replaces TeX in the tree's text (outside math, code, pre and kbd) by the MathML KaTeX renders for it. */
function convertTex(element: Element, tex: TexRenderer): void {
  if (element.math || LITERAL.has(element.name)) return;
  const children: Node[] = [];
  for (const child of element.children) {
    if (typeof child === "string") children.push(...texSegments(child, tex));
    else {
      convertTex(child, tex);
      children.push(child);
    }
  }
  element.children = children;
}

/** One text as text and `math` elements, in order. Linear: each delimiter search starts after the last. */
function texSegments(text: string, tex: TexRenderer): Node[] {
  const out: Node[] = [];
  let i = 0;
  let chunk = 0;
  /** Delimiters with no closing one left in the text: not searched again. */
  const exhausted = new Set<string>();
  while (i < text.length) {
    const open = text.indexOf("\\", i);
    if (open === -1) break;
    const kind = text[open + 1];
    if ((kind !== "(" && kind !== "[") || exhausted.has(kind)) {
      i = open + 1;
      continue;
    }
    const closer = kind === "(" ? "\\)" : "\\]";
    const close = text.indexOf(closer, open + 2);
    if (close === -1) {
      exhausted.add(kind);
      i = open + 2;
      continue;
    }
    const source = text.slice(open + 2, close);
    // A fill-in-blanks marker inside TeX would vanish into MathML: such TeX stays as written.
    const math = source.length <= MAX_TEX_CHARS && !source.includes("{{") ? renderMath(source, kind === "[", tex) : null;
    if (math === null) {
      // Left as written, delimiters and all; the search goes on after it.
      i = close + 2;
      continue;
    }
    if (open > chunk) out.push(text.slice(chunk, open));
    out.push(math);
    i = close + 2;
    chunk = i;
  }
  if (chunk < text.length) out.push(text.slice(chunk));
  return out;
}

/** KaTeX's MathML, read by the same tree builder (so only allow-listed MathML is kept: no xmlns, no spacing attributes). */
function renderMath(source: string, display: boolean, tex: TexRenderer): Element | null {
  const rendered = tex(source, display);
  if (rendered === null) return null;
  const tree = buildTree(rendered, { assetPath: () => null }, new Set());
  return firstMath(tree);
}

function firstMath(element: Element): Element | null {
  for (const child of element.children) {
    if (typeof child === "string") continue;
    if (child.name === "math") return child;
    const inner = firstMath(child);
    if (inner) return inner;
  }
  return null;
}
