/**
 * Rich content reduced to the service's plain text, with each loss named for the report (docs/import-export.md:
 * "dropped image or math", "HTML reduced to text"). Paragraphs and line breaks survive as line
 * breaks; images, formulas and media are dropped; other markup keeps only its text.
 */
import { decodeEntities, type XmlElement, type XmlNode } from "./xml";

export const LOSS = {
  image: "An image was dropped.",
  math: "A formula (MathML or TeX) was dropped.",
  media: "Audio, video or an embedded object was dropped.",
  html: "HTML formatting was reduced to plain text.",
  markdown: "Markdown is kept as plain text.",
} as const;
export type Losses = Set<string>;

/** Elements that end a line of text. */
const BLOCK = new Set([
  "p",
  "div",
  "br",
  "li",
  "ul",
  "ol",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "tr",
  "table",
  "blockquote",
  "pre",
  "section",
  "article",
  "header",
  "footer",
  "dl",
  "dt",
  "dd",
  "hr",
  "figure",
  "figcaption",
  "itemBody",
  "prompt",
  "simpleChoice",
  "simpleAssociableChoice",
  "gapText",
  "inlineChoice",
  "rubricBlock",
  "feedbackBlock",
]);
/** Markup whose only loss, once reduced, is none: paragraphs, line breaks, neutral wrappers. */
const NEUTRAL = new Set([
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
const DROPPED: Record<string, string> = {
  img: LOSS.image,
  math: LOSS.math,
  object: LOSS.media,
  audio: LOSS.media,
  video: LOSS.media,
  iframe: LOSS.media,
  embed: LOSS.media,
  svg: LOSS.image,
  canvas: LOSS.image,
};

/** Marks where a block ends, until runs of them become one line break. */
const EDGE = "\ue00f";

/** Collapses white space the way HTML renders it, keeping the line breaks made by blocks. */
function tidyLines(raw: string): string {
  return raw
    .split("\n")
    .map((line) => line.replace(/[ \t\r\f\v\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The text of an XML tree (a QTI item body, a MathML-bearing paragraph …). `inline` may render an
 * element itself (an interaction becoming a blank marker); returning undefined descends into it.
 */
export function treeText(nodes: XmlNode[], losses: Losses, inline?: (e: XmlElement) => string | undefined): string {
  const out: string[] = [];
  // A block's edges are one line break however many blocks meet there; a <br> is always one.
  const blank = (s: string | undefined) => s !== undefined && s !== EDGE && s.trim() === "";
  const edge = () => {
    while (blank(out[out.length - 1])) out.pop();
    if (out.length > 0 && out[out.length - 1] !== EDGE) out.push(EDGE);
  };
  const walk = (list: XmlNode[]) => {
    for (const node of list) {
      if (typeof node === "string") {
        const last = out[out.length - 1];
        if (node.trim() !== "" || (last !== undefined && last !== EDGE)) out.push(node.replace(/\s+/g, " "));
        continue;
      }
      const own = inline?.(node);
      if (own !== undefined) {
        // Line breaks at the edges of what `inline` renders are block edges, merged like any other.
        if (own.startsWith("\n")) edge();
        out.push(own.replace(/^\n+|\n+$/g, ""));
        if (own.endsWith("\n")) edge();
        continue;
      }
      const dropped = DROPPED[node.name];
      if (dropped) {
        losses.add(dropped);
        continue;
      }
      if (!NEUTRAL.has(node.name)) losses.add(LOSS.html);
      if (node.name === "br") {
        out.push("\n");
        continue;
      }
      const block = BLOCK.has(node.name);
      if (block) edge();
      walk(node.children);
      if (block) edge();
    }
  };
  walk(nodes);
  return tidyLines(out.join("").replaceAll(EDGE, "\n"));
}

const HTML_ENTITIES: Record<string, string> = {
  nbsp: "\u00a0",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  middot: "·",
  times: "×",
  divide: "÷",
  plusmn: "±",
  deg: "°",
  euro: "€",
  pound: "£",
  copy: "©",
  reg: "®",
  eacute: "é",
  egrave: "è",
  ecirc: "ê",
  agrave: "à",
  aacute: "á",
  acirc: "â",
  ccedil: "ç",
  iacute: "í",
  oacute: "ó",
  uacute: "ú",
  ntilde: "ñ",
  auml: "ä",
  ouml: "ö",
  uuml: "ü",
  Auml: "Ä",
  Ouml: "Ö",
  Uuml: "Ü",
  szlig: "ß",
  shy: "\u00ad",
  le: "≤",
  ge: "≥",
  ne: "≠",
  minus: "−",
  pi: "π",
  micro: "µ",
  sup2: "²",
  sup3: "³",
  frac12: "½",
};
const decodeHtmlEntities = (s: string) =>
  decodeEntities(s).replace(/&([A-Za-z0-9]+);/g, (whole, name: string) => HTML_ENTITIES[name] ?? whole);

const TAG = /<\/?([A-Za-z][A-Za-z0-9:-]*)\b[^>]*>/g;

/**
 * An HTML fragment (Moodle's and GIFT's `[html]` text) as plain text. Not a parser: tags are only
 * removed, so a tokenizer is enough; what a tag meant is named in `losses`.
 */
export function htmlText(html: string, losses: Losses): string {
  const cleaned = html
    .replace(/<!--[\s\S]*?-->|<![^>]*>/g, "")
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<(math|svg|object|audio|video)\b[\s\S]*?<\/\1\s*>/gi, (_, name: string) => {
      losses.add(DROPPED[name.toLowerCase()] ?? LOSS.media);
      return " ";
    })
    .replace(/\\\(([\s\S]*?)\\\)|\\\[([\s\S]*?)\\\]|\$\$([\s\S]+?)\$\$/g, () => {
      losses.add(LOSS.math);
      return " ";
    });
  const text = cleaned.replace(/\s+/g, " ").replace(TAG, (_, raw: string) => {
    const name = raw.toLowerCase();
    const dropped = DROPPED[name];
    if (dropped) losses.add(dropped);
    else if (!NEUTRAL.has(name)) losses.add(LOSS.html);
    return name === "br" ? "\n" : BLOCK.has(name) ? EDGE : "";
  });
  return tidyLines(decodeHtmlEntities(text.replace(/\ue00f(\s*\ue00f)*/g, "\n").replace(/^\n|\n$/g, "")));
}

/** Whether a string holds HTML markup rather than text that merely has a "<" in it. */
export const looksLikeHtml = (s: string) => /<\/?[A-Za-z][A-Za-z0-9]*\b[^>]*>/.test(s);

/** Plain text as one HTML paragraph with a `<br/>` per line break, so reading it back gives the same lines. */
export const paragraph = (text: string, esc: (s: string) => string) => `<p>${text.split("\n").map(esc).join("<br/>")}</p>`;
