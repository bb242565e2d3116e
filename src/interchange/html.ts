/**
 * Formatted text kept (CONTRACT §19): what the readers hand the sanitizer and what the writers
 * write. A reader that meets markup plain text cannot carry (anything beyond paragraphs, line
 * breaks and neutral wrappers: emphasis, lists, tables, images, MathML) makes the question
 * `content_format: "html"`; its texts are then HTML fragments, sanitized to the allow-list in
 * `finish` (check.ts), whose removals are named in the item's notes. Everything here is one pass.
 */
import { contentFields } from "../domain/content/question-content";
import { type SanitizeOptions, sanitizeHtml } from "../domain/content/sanitize";
import type { QuestionInput } from "./types";
import type { XmlElement, XmlNode } from "./xml";

/** Markup plain text carries as well (paragraphs, line breaks, wrappers that show nothing). */
const PLAIN_MARKUP = new Set([
  "p",
  "div",
  "br",
  "span",
  "body",
  "html",
  "itemBody",
  "prompt",
  "contentBody",
  "section",
  "article",
  "font",
]);

/** Elements written without an end tag in HTML. */
const VOID = new Set(["br", "hr", "img", "col", "wbr", "area", "source", "track", "input", "meta", "link", "param"]);

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttribute = (s: string) => escapeHtml(s).replace(/"/g, "&quot;");

/** Plain text as an HTML fragment that shows the same: escaped, each line break a `<br>`. */
export const textAsHtml = (text: string) => escapeHtml(text).replace(/\r\n?|\n/g, "<br>");

/**
 * Whether XML content holds markup that plain text would lose. `kind` may say an element is
 * not text ("skip": not looked into) or is the format's own structure ("descend": looked into,
 * not markup itself). One pass over the nodes.
 */
export function holdsMarkup(
  nodes: XmlNode[],
  kind: (e: XmlElement) => "skip" | "descend" | undefined = () => undefined,
): boolean {
  const stack: XmlNode[] = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop() as XmlNode;
    if (typeof node === "string") continue;
    const k = kind(node);
    if (k === "skip") continue;
    if (k === undefined && !PLAIN_MARKUP.has(node.name)) return true;
    for (const c of node.children) stack.push(c);
  }
  return false;
}

/**
 * Whether an HTML string (Moodle's or GIFT's text) holds markup plain text would lose, or TeX the
 * service turns into MathML: a tag other than paragraphs, line breaks and wrappers, or `\(`, `\[`,
 * `$$`. One scan of its tags.
 */
export function stringHoldsMarkup(html: string): boolean {
  if (html.includes("\\(") || html.includes("\\[") || html.includes("$$")) return true;
  const tag = /<\/?([A-Za-z][A-Za-z0-9]*)/g;
  for (let m = tag.exec(html); m; m = tag.exec(html)) if (!PLAIN_MARKUP.has((m[1] ?? "").toLowerCase())) return true;
  return false;
}

/**
 * XML content (a QTI item body's part, namespaces already off the names) as an HTML fragment:
 * text escaped, attributes double-quoted, every element closed. `inline` may render an element
 * itself (an interaction as a blank marker, as HTML); `src` maps an `img`'s src (a package file
 * to the asset that holds it). What the allow-list does not keep is the sanitizer's to remove.
 */
export function treeHtml(
  nodes: XmlNode[],
  options: { inline?: (e: XmlElement) => string | undefined; src?: (src: string) => string } = {},
): string {
  const out: string[] = [];
  let pre = 0;
  const walk = (list: XmlNode[]) => {
    for (const node of list) {
      if (typeof node === "string") {
        // HTML's white space is one space but in `pre`: the source's indentation says nothing (a no-break space is text).
        out.push(escapeHtml(pre > 0 ? node : node.replace(/[ \t\n\r\f]+/g, " ")));
        continue;
      }
      const own = options.inline?.(node);
      if (own !== undefined) {
        out.push(own);
        continue;
      }
      out.push(`<${node.name}`);
      for (const [name, value] of Object.entries(node.attrs)) {
        const shown = node.name === "img" && name === "src" && options.src ? options.src(value) : value;
        out.push(` ${name}="${escapeAttribute(shown)}"`);
      }
      out.push(">");
      if (VOID.has(node.name)) continue;
      if (node.name === "pre") pre++;
      walk(node.children);
      if (node.name === "pre") pre--;
      out.push(`</${node.name}>`);
    }
  };
  walk(nodes);
  return out.join("").trim();
}

/** Attributes whose removal loses no text, image or formula: the look of the source, not its content. */
const PRESENTATION = /@(class|id|style|xmlns(:.*)?|data-.*|align|valign|border|cellpadding|cellspacing|bgcolor|color|face|size)$/;
const isPresentation = (removed: string) => removed === "#comment" || PRESENTATION.test(removed);

/** What sanitizing a question's texts removed: losses (elements, content, links and images) and the look of the source. */
export interface HtmlRemovals {
  losses: string[];
  presentation: string[];
}

/**
 * The question's formatted texts sanitized to the allow-list, in place (the stored form, TeX left
 * as written: the import's write converts it, sanitizing being idempotent), and what it removed.
 */
export function sanitizeQuestion(q: QuestionInput, options: SanitizeOptions = {}): HtmlRemovals {
  const losses = new Set<string>();
  const presentation = new Set<string>();
  for (const field of contentFields(q as unknown as Record<string, unknown>)) {
    const { html, removed } = sanitizeHtml(field.value, { origin: options.origin });
    field.replace(html);
    for (const r of removed) (isPresentation(r) ? presentation : losses).add(r);
  }
  return { losses: [...losses], presentation: [...presentation] };
}

/** The notes naming the removals (a note each for losses and for presentation). */
export function removalNotes(removals: HtmlRemovals): { losses: string[]; remarks: string[] } {
  // An element removed takes its attributes with it: naming them too says nothing more.
  const elements = new Set(removals.losses.filter((r) => !r.includes("@")));
  const own = (r: string) => !r.includes("@") || !elements.has(r.slice(0, r.indexOf("@")));
  const losses = removals.losses.filter(own);
  const presentation = removals.presentation.filter(own);
  const list = (names: string[]) => names.map((n) => (n.startsWith("#") ? n.slice(1) : `<${n.replace("@", " ")}>`)).join(", ");
  return {
    losses: losses.length > 0 ? [`The allow-list of formatted text removed: ${list(losses)}.`] : [],
    remarks:
      presentation.length > 0
        ? [`Presentation the allow-list does not keep was removed (no text lost): ${list(presentation)}.`]
        : [],
  };
}

/** Where the tag starting at `<` ends (after its ">"), quoted attribute values skipped; -1 when it never does. */
function tagEnd(html: string, from: number): number {
  let quote = "";
  for (let i = from; i < html.length; i++) {
    const c = html[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ">") return i + 1;
  }
  return -1;
}

const SRC = /\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/**
 * Every `img` tag of an HTML string, its src given to `rewrite`: a new src, or null to drop the tag.
 * One pass: each tag is scanned once to its end, quoted values and all.
 */
export function rewriteImages(html: string, rewrite: (src: string) => string | null): string {
  const out: string[] = [];
  let copied = 0;
  const open = /<img\b/gi;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const end = tagEnd(html, m.index + 4);
    if (end < 0) break;
    const tag = html.slice(m.index, end);
    const src = SRC.exec(tag);
    const value = src ? (src[1] ?? src[2] ?? src[3] ?? "") : "";
    const next = rewrite(value);
    out.push(html.slice(copied, m.index));
    if (next !== null) out.push(src ? tag.replace(src[0], ` src="${escapeAttribute(next)}"`) : tag);
    copied = end;
    open.lastIndex = end;
  }
  out.push(html.slice(copied));
  return out.join("");
}

/** TeX between `$$`…`$$` (Moodle's and MathJax's display math) as `\[`…`\]`, which the sanitizer turns into MathML. One pass. */
export function displayTex(text: string): string {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf("$$", at);
    const close = open < 0 ? -1 : text.indexOf("$$", open + 3);
    if (close < 0) break;
    out.push(text.slice(at, open), "\\[", text.slice(open + 2, close), "\\]");
    at = close + 2;
  }
  out.push(text.slice(at));
  return out.join("");
}
