import { RAW_TEXT_ELEMENTS } from "./allow-list";
import { NAMED_REFERENCES } from "./entities";

/**
 * An HTML fragment read as tokens, after the WHATWG tokenizer's states (data, tag open, tag name,
 * attributes, comments, bogus comments, raw text), in one pass: every state moves forward and no
 * regular expression backtracks, so the time is linear in the input (test/domain/content-linear.test.ts).
 *
 * It reads as a browser reads, where that matters for safety: attribute values may hold `>`, a
 * comment ends at `-->`, `--!>`, `<!-->` or `<!--->`, a tag cut off by the end of the input is no
 * tag, and the raw-text elements' content (script, style, textarea, …) is never markup. Where it is
 * simpler than a browser (no CDATA sections, named references only from NAMED_REFERENCES and only
 * with their `;`), the sanitizer keeps less, never more: what it writes is its own serialization of
 * what it kept, so a difference in reading can only lose text, not add markup.
 */

export type Attribute = [name: string, value: string];

export interface TokenSink {
  text(text: string): void;
  startTag(name: string, attributes: Attribute[], selfClosing: boolean): void;
  endTag(name: string): void;
  /** A comment, bogus comment, doctype, processing instruction or CDATA section: all dropped. */
  comment(): void;
  /** A raw-text element (script, style, …) read to its end tag, content and all. */
  rawText(name: string): void;
}

const TAB = 9;
const LF = 10;
const FF = 12;
const CR = 13;
const SPACE = 32;
const isSpace = (c: number) => c === TAB || c === LF || c === FF || c === CR || c === SPACE;
const isAsciiAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAsciiAlnum = (c: number) => isAsciiAlpha(c) || (c >= 48 && c <= 57);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isHexDigit = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** The WHATWG table for numeric references to C1 codes (read as Windows-1252). */
const C1_REPLACEMENTS: Readonly<Record<number, number>> = {
  128: 0x20ac,
  130: 0x201a,
  131: 0x0192,
  132: 0x201e,
  133: 0x2026,
  134: 0x2020,
  135: 0x2021,
  136: 0x02c6,
  137: 0x2030,
  138: 0x0160,
  139: 0x2039,
  140: 0x0152,
  142: 0x017d,
  145: 0x2018,
  146: 0x2019,
  147: 0x201c,
  148: 0x201d,
  149: 0x2022,
  150: 0x2013,
  151: 0x2014,
  152: 0x02dc,
  153: 0x2122,
  154: 0x0161,
  155: 0x203a,
  156: 0x0153,
  158: 0x017e,
  159: 0x0178,
};
const MAX_NAMED_REFERENCE = 32;
/** Digits read of a numeric reference: enough for U+10FFFF, and a bound on the loop. */
const MAX_REFERENCE_DIGITS = 8;

/** A numeric reference's code point as the WHATWG rules map it; control characters (but tab, LF, CR) become nothing. */
function numericCharacter(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
  const mapped = C1_REPLACEMENTS[code];
  if (mapped !== undefined) return String.fromCodePoint(mapped);
  if ((code < 0x20 && code !== TAB && code !== LF && code !== CR) || (code >= 0x7f && code <= 0x9f)) return "";
  return String.fromCodePoint(code);
}

/**
 * `s[from, to)` with its character references decoded. A reference it does not know stays as
 * written: its `&` is escaped when serialized, so it shows literally and means nothing.
 */
function decodeReferences(whole: string, start = 0, stop = whole.length): string {
  // The range alone, so that each search for "&" ends at its end: a value's decode must not read
  // the rest of the input (many short values would make the fragment quadratic).
  const s = start === 0 && stop === whole.length ? whole : whole.slice(start, stop);
  const from = 0;
  const to = s.length;
  let out = "";
  let i = from;
  let chunk = from;
  while (i < to) {
    const amp = s.indexOf("&", i);
    if (amp === -1 || amp >= to) break;
    let j = amp + 1;
    let decoded: string | undefined;
    if (s.charCodeAt(j) === 35 /* # */) {
      j++;
      const hex = (s.charCodeAt(j) | 32) === 120; /* x */
      if (hex) j++;
      const start = j;
      let code = 0;
      const digit = hex ? isHexDigit : isDigit;
      while (j < to && j - start < MAX_REFERENCE_DIGITS && digit(s.charCodeAt(j))) {
        code = code * (hex ? 16 : 10) + Number.parseInt(s[j] as string, 16);
        j++;
      }
      // Longer runs of digits name no code point: skip them all as the browser does (U+FFFD).
      while (j < to && digit(s.charCodeAt(j))) {
        code = 0x110000;
        j++;
      }
      if (j > start) {
        decoded = numericCharacter(code);
        if (s.charCodeAt(j) === 59 /* ; */) j++;
      }
    } else {
      const start = j;
      while (j < to && j - start <= MAX_NAMED_REFERENCE && isAsciiAlnum(s.charCodeAt(j))) j++;
      if (j > start && s.charCodeAt(j) === 59) {
        const name = s.slice(start, j);
        if (Object.hasOwn(NAMED_REFERENCES, name)) {
          decoded = NAMED_REFERENCES[name];
          j++;
        }
      }
    }
    if (decoded === undefined) {
      i = amp + 1;
      continue;
    }
    out += s.slice(chunk, amp) + decoded;
    chunk = j;
    i = j;
  }
  return out + s.slice(chunk, to);
}

/** ASCII lower case, as the tokenizer folds tag and attribute names. */
const lower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** Reads `input` and reports its tokens to `sink`. */
export function tokenize(input: string, sink: TokenSink): void {
  const n = input.length;
  let i = 0;
  let textStart = 0;
  const flushText = (end: number) => {
    if (end > textStart) sink.text(decodeReferences(input, textStart, end));
  };
  while (i < n) {
    const lt = input.indexOf("<", i);
    if (lt === -1) break;
    const next = input.charCodeAt(lt + 1);
    if (isAsciiAlpha(next)) {
      flushText(lt);
      const tag = readTag(input, lt + 1);
      if (tag === null) {
        // Cut off by the end of the input: no tag, and nothing after it.
        textStart = n;
        i = n;
        break;
      }
      i = tag.end;
      textStart = i;
      if (RAW_TEXT_ELEMENTS.has(tag.name)) {
        sink.rawText(tag.name);
        i = tag.name === "plaintext" ? n : rawTextEnd(input, i, tag.name);
        textStart = i;
        continue;
      }
      sink.startTag(tag.name, tag.attributes, tag.selfClosing);
    } else if (next === 47 /* / */) {
      flushText(lt);
      const after = input.charCodeAt(lt + 2);
      if (isAsciiAlpha(after)) {
        const tag = readTag(input, lt + 2);
        if (tag === null) {
          textStart = n;
          i = n;
          break;
        }
        sink.endTag(tag.name);
        i = tag.end;
      } else if (after === 62 /* > */) {
        i = lt + 3;
      } else {
        sink.comment();
        i = bogusCommentEnd(input, lt + 2);
      }
      textStart = i;
    } else if (next === 33 /* ! */) {
      flushText(lt);
      sink.comment();
      i = input.startsWith("--", lt + 2) ? commentEnd(input, lt + 4) : bogusCommentEnd(input, lt + 2);
      textStart = i;
    } else if (next === 63 /* ? */) {
      flushText(lt);
      sink.comment();
      i = bogusCommentEnd(input, lt + 1);
      textStart = i;
    } else {
      // A `<` that starts nothing is text.
      i = lt + 1;
    }
  }
  flushText(n);
}

/** After `<!--`: the index after the comment's end (`-->`, `--!>`, or at once `>` / `->`), or the input's end. */
function commentEnd(s: string, from: number): number {
  if (s.charCodeAt(from) === 62) return from + 1;
  if (s.startsWith("->", from)) return from + 2;
  let i = from;
  for (;;) {
    const dash = s.indexOf("--", i);
    if (dash === -1) return s.length;
    if (s.charCodeAt(dash + 2) === 62) return dash + 3;
    if (s.startsWith("!>", dash + 2)) return dash + 4;
    i = dash + 1;
  }
}

/** A bogus comment (`<!…>`, `<?…>`, `</…>`) runs to the first `>`. */
function bogusCommentEnd(s: string, from: number): number {
  const gt = s.indexOf(">", from);
  return gt === -1 ? s.length : gt + 1;
}

/** After a raw-text element's start tag: the index after its end tag (`</name` then space, `/` or `>`), or the end. */
function rawTextEnd(s: string, from: number, name: string): number {
  let i = from;
  for (;;) {
    const open = s.indexOf("</", i);
    if (open === -1) return s.length;
    const end = open + 2 + name.length;
    if (
      lower(s.slice(open + 2, end)) === name &&
      (end >= s.length || isSpace(s.charCodeAt(end)) || s.charCodeAt(end) === 47 || s.charCodeAt(end) === 62)
    ) {
      // The end tag's own attributes, if any, are read like any tag's (a quoted `>` does not end it).
      const tag = readTag(s, open + 2);
      return tag === null ? s.length : tag.end;
    }
    i = open + 2;
  }
}

interface Tag {
  name: string;
  attributes: Attribute[];
  selfClosing: boolean;
  /** The index after the tag's `>`. */
  end: number;
}

/** A tag from its name's first letter; null when the input ends before its `>`. Later duplicates of an attribute are dropped. */
function readTag(s: string, from: number): Tag | null {
  const n = s.length;
  let i = from;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isSpace(c) || c === 47 || c === 62) break;
    i++;
  }
  const name = lower(s.slice(from, i));
  const attributes: Attribute[] = [];
  const seen = new Set<string>();
  let selfClosing = false;
  while (i < n) {
    let c = s.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 62) return { name, attributes, selfClosing, end: i + 1 };
    if (c === 47) {
      i++;
      selfClosing = s.charCodeAt(i) === 62;
      continue;
    }
    selfClosing = false;
    // An attribute's name: its first character may be `=`; then up to space, `/`, `>` or `=`.
    const nameStart = i;
    i++;
    while (i < n) {
      c = s.charCodeAt(i);
      if (isSpace(c) || c === 47 || c === 62 || c === 61) break;
      i++;
    }
    const attributeName = lower(s.slice(nameStart, i));
    while (i < n && isSpace(s.charCodeAt(i))) i++;
    let value = "";
    if (s.charCodeAt(i) === 61 /* = */) {
      i++;
      while (i < n && isSpace(s.charCodeAt(i))) i++;
      const quote = s.charCodeAt(i);
      if (quote === 34 || quote === 39) {
        const close = s.indexOf(quote === 34 ? '"' : "'", i + 1);
        if (close === -1) return null;
        value = decodeReferences(s, i + 1, close);
        i = close + 1;
      } else {
        const valueStart = i;
        while (i < n) {
          c = s.charCodeAt(i);
          if (isSpace(c) || c === 62) break;
          i++;
        }
        value = decodeReferences(s, valueStart, i);
      }
    }
    if (!seen.has(attributeName)) {
      seen.add(attributeName);
      attributes.push([attributeName, value]);
    }
  }
  return null;
}
