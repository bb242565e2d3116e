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

/** A table's own entry for a name read from the file (never `constructor` or another inherited property). */
const ownEntry = <T>(table: Record<string, T>, name: string): T | undefined =>
  Object.hasOwn(table, name) ? table[name] : undefined;

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

/** `s` without the line breaks at its ends: one pass from each end. */
function trimLineBreaks(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s[start] === "\n") start++;
  while (end > start && s[end - 1] === "\n") end--;
  return s.slice(start, end);
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
        out.push(trimLineBreaks(own));
        if (own.endsWith("\n")) edge();
        continue;
      }
      const dropped = ownEntry(DROPPED, node.name);
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
  decodeEntities(s).replace(/&([A-Za-z0-9]+);/g, (whole, name: string) => ownEntry(HTML_ENTITIES, name) ?? whole);

/** Where `marker` next occurs at or after `from`; -1 when nowhere. */
type Find = (marker: string | RegExp, from: number) => number;

/**
 * A `Find` over one text that remembers: a marker searched for again from further on is found
 * where it was last seen (when that is still ahead), and one found nowhere is not searched for
 * again. Each marker thus scans the text about once, however many constructs open and never close.
 */
function finder(text: string): Find {
  const seen = new Map<string, { from: number; at: number }>();
  return (marker, from) => {
    const name = typeof marker === "string" ? marker : marker.source;
    const last = seen.get(name);
    if (last && from >= last.from && (last.at < 0 || last.at >= from)) return last.at;
    let at: number;
    if (typeof marker === "string") at = text.indexOf(marker, from);
    else {
      marker.lastIndex = from;
      at = marker.exec(text)?.index ?? -1;
    }
    seen.set(name, { from, at });
    return at;
  };
}

/**
 * `text` with every span that `at` recognises replaced, left to right and never overlapping — what
 * a global `replace` with `open[\s\S]*?close` does, in one pass: `at` is tried where `candidates`
 * matches and gives the span's end and replacement, or undefined when none starts there.
 */
function replaceSpans(
  text: string,
  candidates: RegExp,
  at: (p: number, find: Find) => { end: number; with: string } | undefined,
): string {
  const find = finder(text);
  const out: string[] = [];
  let copied = 0;
  candidates.lastIndex = 0;
  for (let m = candidates.exec(text); m; m = candidates.exec(text)) {
    const span = at(m.index, find);
    if (!span) {
      candidates.lastIndex = m.index + 1;
      continue;
    }
    out.push(text.slice(copied, m.index), span.with);
    copied = span.end;
    candidates.lastIndex = span.end;
  }
  out.push(text.slice(copied));
  return out.join("");
}

/** An element and everything up to its end tag (`<name …>…</name >`, any case), as a span: undefined when it never ends. */
function elementSpan(names: RegExp, replacement: (name: string) => string) {
  return (p: number, find: Find, text: string) => {
    names.lastIndex = p;
    const open = names.exec(text);
    if (!open) return undefined;
    const name = (open[1] ?? "").toLowerCase();
    const close = END_TAGS[name] as RegExp;
    const at = find(close, names.lastIndex);
    if (at < 0) return undefined;
    close.lastIndex = at;
    return { end: at + (close.exec(text)?.[0].length ?? 0), with: replacement(name) };
  };
}

const SCRIPT = /<(script|style)\b/iy;
const MEDIA = /<(math|svg|object|audio|video)\b/iy;
/** End tags, in any case, with white space before the ">". */
const END_TAGS: Record<string, RegExp> = Object.fromEntries(
  ["script", "style", "math", "svg", "object", "audio", "video"].map((name) => [name, new RegExp(`</${name}\\s*>`, "gi")]),
);
const TEX: [string, string, number][] = [
  ["\\(", "\\)", 2],
  ["\\[", "\\]", 2],
  // $$…$$ holds at least one character.
  ["$$", "$$", 3],
];
const isWordChar = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
const isTagNameChar = (c: number) => isWordChar(c) || c === 0x3a || c === 0x2d;

/** A tag `</?name …>` at `p` (the name as `<\/?([A-Za-z][A-Za-z0-9:-]*)\b` takes it), with where it ends. */
function tagAt(text: string, p: number, find: Find): { name: string; end: number } | undefined {
  const start = p + (text[p + 1] === "/" ? 2 : 1);
  const first = text.charCodeAt(start);
  if (!((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a))) return undefined;
  let end = start + 1;
  while (end < text.length && isTagNameChar(text.charCodeAt(end)) && text[end] !== "_") end++;
  // The name ends at a word boundary: back off over a trailing ":" or "-" as the pattern would.
  const boundary = (k: number) => isWordChar(text.charCodeAt(k - 1)) !== (k < text.length && isWordChar(text.charCodeAt(k)));
  while (end > start + 1 && !boundary(end)) end--;
  if (!boundary(end)) return undefined;
  const gt = find(">", end);
  return gt < 0 ? undefined : { name: text.slice(start, end).toLowerCase(), end: gt + 1 };
}

/**
 * An HTML fragment (Moodle's and GIFT's `[html]` text) as plain text. Not a parser: tags are only
 * removed, so a tokenizer is enough; what a tag meant is named in `losses`. In turn: comments and
 * declarations go, then script and style with their content, then formulas and media with theirs
 * (named), then TeX (named); white space is collapsed and the tags are removed, a block's end
 * becoming a line break. Each step is one linear pass.
 */
export function htmlText(html: string, losses: Losses): string {
  const noComments = replaceSpans(html, /<!/g, (p, find) => {
    const end = html.startsWith("<!--", p) ? find("-->", p + 4) : -1;
    if (end >= 0) return { end: end + 3, with: "" };
    const gt = find(">", p + 2);
    return gt < 0 ? undefined : { end: gt + 1, with: "" };
  });
  const script = elementSpan(SCRIPT, () => "");
  const noScript = replaceSpans(noComments, /</g, (p, find) => script(p, find, noComments));
  const media = elementSpan(MEDIA, (name) => {
    losses.add(ownEntry(DROPPED, name) ?? LOSS.media);
    return " ";
  });
  const noMedia = replaceSpans(noScript, /</g, (p, find) => media(p, find, noScript));
  const noTex = replaceSpans(noMedia, /[\\$]/g, (p, find) => {
    for (const [open, close, body] of TEX) {
      if (!noMedia.startsWith(open, p)) continue;
      const end = find(close, p + body);
      if (end < 0) return undefined;
      losses.add(LOSS.math);
      return { end: end + close.length, with: " " };
    }
    return undefined;
  });
  const collapsed = noTex.replace(/\s+/g, " ");
  const text = replaceSpans(collapsed, /</g, (p, find) => {
    const tag = tagAt(collapsed, p, find);
    if (!tag) return undefined;
    const dropped = ownEntry(DROPPED, tag.name);
    if (dropped) losses.add(dropped);
    else if (!NEUTRAL.has(tag.name)) losses.add(LOSS.html);
    return { end: tag.end, with: tag.name === "br" ? "\n" : BLOCK.has(tag.name) ? EDGE : "" };
  });
  return tidyLines(decodeHtmlEntities(text.replace(/\ue00f(\s*\ue00f)*/g, "\n").replace(/^\n|\n$/g, "")));
}

/**
 * Whether a string holds HTML markup rather than text that merely has a "<" in it: a `<name` or
 * `</name` (`<\/?[A-Za-z][A-Za-z0-9]*\b`) with a ">" after it. Only the first such name matters:
 * a ">" after a later one is after it too.
 */
export function looksLikeHtml(s: string): boolean {
  const open = /<\/?[A-Za-z][A-Za-z0-9]*(?![A-Za-z0-9_])/.exec(s);
  return open !== null && s.indexOf(">", open.index + open[0].length) >= 0;
}

/** Plain text as one HTML paragraph with a `<br/>` per line break, so reading it back gives the same lines. */
export const paragraph = (text: string, esc: (s: string) => string) => `<p>${text.split("\n").map(esc).join("<br/>")}</p>`;
