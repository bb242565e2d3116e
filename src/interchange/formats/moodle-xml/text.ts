/**
 * Moodle XML's texts (`<questiontext format="html"><text>…</text></questiontext>`) and its
 * embedded-answer (Cloze) syntax `{2:SHORTANSWER:=Paris#Yes~%50%Lyon}`.
 */

import { assetPath } from "../../../domain/asset-url";
import { htmlText, LOSS, type Losses, looksLikeHtml } from "../../content";
import { displayTex, rewriteImages, stringHoldsMarkup, textAsHtml } from "../../html";
import { decodeBase64, type ImageStore, imageDropped, WHY } from "../../images";
import { child, descendants, elements, textOf, type XmlElement } from "../../xml";

/** The text of a Moodle text element in the service's plain text, by its `format`. */
function moodleText(e: XmlElement | undefined, losses: Losses): string {
  if (!e) return "";
  const raw = textOf(child(e, "text") ?? e);
  const format = e.attrs.format ?? "html";
  if (format === "plain_text") return raw.trim();
  if (format === "markdown") {
    if (/[*_`#]|\]\(/.test(raw)) losses.add(LOSS.markdown);
    return raw.trim();
  }
  return format === "html" || looksLikeHtml(raw) ? htmlText(raw, losses) : raw.trim();
}

/** The elements of a Moodle question that hold a text with a format (and its files). */
const TEXT_HOLDERS = new Set([
  "questiontext",
  "generalfeedback",
  "correctfeedback",
  "partiallycorrectfeedback",
  "incorrectfeedback",
  "answer",
  "feedback",
  "subquestion",
]);
const HTML_FORMATS = new Set(["html", "moodle_auto_format"]);
const PLUGINFILE = "@@PLUGINFILE@@/";

/** A question's texts read by their format: as the service's plain text, or as HTML fragments when the question's HTML is kept. */
export interface MoodleTexts {
  html: boolean;
  /** A text of the question (content_format "html": an HTML fragment). */
  of(e: XmlElement | undefined): string;
  /** Plain text whatever the question's format (accepted answers, a matching answer). */
  plain(e: XmlElement | undefined): string;
}

/**
 * The texts of question `q`. Its HTML is kept (CONTRACT §19) when one of its html or
 * moodle_auto_format texts holds markup plain text would lose, TeX or an image; then each such
 * text is HTML with its `@@PLUGINFILE@@/name` images taken from the text's base64 `<file>`s
 * (stored as assets by the import) and `$$…$$` made `\[…\]`, and a plain_text or markdown text
 * is escaped into HTML. Cloze questions keep plain text (their gaps are syntax in the text).
 */
export function moodleTexts(q: XmlElement, losses: Losses, notes: string[], images: ImageStore, keepHtml: boolean): MoodleTexts {
  const holders = keepHtml ? textHolders(q, VALUE_ANSWERS.has(q.attrs.type ?? "")) : [];
  const html = holders.some((h) => HTML_FORMATS.has(h.attrs.format ?? "html") && stringHoldsMarkup(textOf(child(h, "text"))));
  const plain = (e: XmlElement | undefined) => moodleText(e, losses);
  if (!html) return { html, of: plain, plain };
  const noted = new Set<string>();
  const drop = (name: string, why: string) => {
    const note = imageDropped(name, why);
    if (!noted.has(note)) notes.push(note);
    noted.add(note);
    return null;
  };
  const image = (holder: XmlElement, src: string): string | null => {
    if (!src.startsWith(PLUGINFILE)) return src;
    const name = safeDecode(src.slice(PLUGINFILE.length).split(/[?#]/)[0] ?? "");
    const file = fileOf(elements(holder, "file"), name) ?? fileOf(descendants(q, "file"), name);
    if (!file) return drop(name, WHY.missing);
    const bytes = decodeBase64(textOf(file));
    if (bytes === "too large") return drop(name, WHY.tooLarge);
    if (bytes === "invalid") return drop(name, "is not valid base64");
    const kept = images.add(bytes);
    return "why" in kept ? drop(name, kept.why) : assetPath(kept.id);
  };
  const of = (e: XmlElement | undefined) => {
    if (!e) return "";
    const raw = textOf(child(e, "text") ?? e);
    const format = e.attrs.format ?? "html";
    if (format === "markdown" && /[*_`#]|\]\(/.test(raw)) losses.add(LOSS.markdown);
    if (!HTML_FORMATS.has(format)) return textAsHtml(raw.trim());
    return displayTex(rewriteImages(raw, (src) => image(e, src))).trim();
  };
  return { html, of, plain };
}

/** Question types whose answers are values compared as plain text, not texts shown (their feedback is). */
const VALUE_ANSWERS = new Set(["shortanswer", "numerical", "truefalse"]);

/**
 * The texts of a question that are shown as its texts: its own and its answers' (a matching
 * answer, a short or numerical answer is a value read as plain text, whatever its format).
 */
function textHolders(q: XmlElement, valueAnswers: boolean): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    for (const c of elements(e)) {
      const value = c.name === "answer" && (valueAnswers || e.name === "subquestion");
      if (TEXT_HOLDERS.has(c.name) && !value && child(c, "text")) out.push(c);
      if (c.name !== "text" && c.name !== "file") walk(c);
    }
  };
  walk(q);
  return out;
}

/** The `<file>` of a text holder named by an `@@PLUGINFILE@@` path ("name" or "folder/name"). */
function fileOf(files: XmlElement[], name: string): XmlElement | undefined {
  return files.find((f) => {
    const folder = (f.attrs.path ?? "/").replace(/^\/|\/$/g, "");
    return (folder ? `${folder}/` : "") + (f.attrs.name ?? "") === name;
  });
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

interface ClozeAnswer {
  text: string;
  weight: number;
  feedback: string;
}

export interface ClozePart {
  /** The blank's share of the question's marks (the number before the first colon, default 1). */
  weight: number;
  kind: "short" | "short_case" | "numeric" | "choice" | "multi";
  answers: ClozeAnswer[];
}

const KINDS: Record<string, ClozePart["kind"]> = {
  SHORTANSWER: "short",
  SA: "short",
  MW: "short",
  SHORTANSWER_C: "short_case",
  SAC: "short_case",
  MWC: "short_case",
  NUMERICAL: "numeric",
  NM: "numeric",
  MULTICHOICE: "choice",
  MC: "choice",
  MULTICHOICE_V: "choice",
  MCV: "choice",
  MULTICHOICE_H: "choice",
  MCH: "choice",
  MULTICHOICE_S: "choice",
  MCS: "choice",
  MULTICHOICE_VS: "choice",
  MCVS: "choice",
  MULTICHOICE_HS: "choice",
  MCHS: "choice",
  MULTIRESPONSE: "multi",
  MR: "multi",
  MULTIRESPONSE_H: "multi",
  MRH: "multi",
  MULTIRESPONSE_S: "multi",
  MRS: "multi",
  MULTIRESPONSE_HS: "multi",
  MRHS: "multi",
};

/**
 * Where each embedded answer stood, once the text around it has been reduced to plain text. The
 * text's own characters U+E010–U+E012 are set apart first (U+E012, then the character moved up by
 * 3), so none passes for a marker; `restoreCloze` gives them back.
 */
const clozeMarker = (i: number) => `\ue010${i}\ue011`;
export const CLOZE_MARKER = /\ue010(\d+)\ue011/g;
const setApart = (s: string) => s.replace(/[\ue010-\ue012]/g, (c) => `\ue012${String.fromCharCode(c.charCodeAt(0) + 3)}`);
export const restoreCloze = (s: string) => s.replace(/\ue012[\ue013-\ue015]/g, (c) => String.fromCharCode(c.charCodeAt(1) - 3));

/** What starts an embedded answer: `{weight:TYPE:` (Moodle's ANSWER_START_REGEX, any upper-case type). */
const CLOZE_START = /\{(\d*):([A-Z_]+):/y;
/** A fraction at the start of an answer: "=" or "%50%" (Moodle takes "," for the decimal point too). */
const FRACTION = /^%(-?\d+(?:[.,]\d*)?)%/;

/**
 * An embedded answer's text or feedback as Moodle's qtype_multianswer takes it: entities decoded
 * (`decode`), then "\}" and "\#" unescaped, in that order. Nothing else is an escape.
 */
export const readClozeText = (raw: string, decode: (s: string) => string) =>
  decode(raw).replaceAll("\\}", "}").replaceAll("\\#", "#");

interface RawAnswer {
  weight: number;
  text: string;
  feedback: string;
}

/**
 * The answers of the embedded answer whose body starts at `from`, and where it ends (after its
 * "}"), or undefined when nothing closes it. As Moodle's ANSWER_ALTERNATIVE_REGEX: an answer ends
 * at a "~", "#" or "}" not after "\\", "&" or "&amp;" (so entities such as "&#35;" are text); its
 * feedback after "#" ends at a "~" or "}" not after "\\".
 */
function clozeBody(s: string, from: number): { answers: RawAnswer[]; end: number } | undefined {
  const answers: RawAnswer[] = [];
  let answer: string | undefined;
  let segment = from;
  const push = (feedback: string) => {
    let text = (answer ?? "").trim();
    let weight = 0;
    if (text.startsWith("=")) {
      weight = 1;
      text = text.slice(1);
    } else {
      const w = FRACTION.exec(text);
      if (w) {
        weight = Number(w[1]?.replace(",", ".")) / 100;
        text = text.slice(w[0].length);
      }
    }
    answers.push({ weight, text, feedback });
    answer = undefined;
  };
  const specials = /[~}#]/g;
  specials.lastIndex = from;
  for (let found = specials.exec(s); found; found = specials.exec(s)) {
    const [i, c] = [found.index, found[0]];
    // While `answer` is undefined the answer is being read, afterwards its feedback.
    const inAnswer = answer === undefined;
    if (c === "#" && !inAnswer) continue;
    if (s[i - 1] === "\\" || (inAnswer && (s[i - 1] === "&" || s.startsWith("&amp;", i - 5)))) continue;
    const part = s.slice(segment, i);
    segment = i + 1;
    if (c === "#") {
      answer = part;
      continue;
    }
    if (inAnswer) answer = part;
    push(inAnswer ? "" : part);
    if (c === "}") return { answers, end: i + 1 };
  }
  return undefined;
}

/**
 * The embedded answers of a Cloze text, and the text with a marker in the place of each. One pass:
 * an embedded answer that nothing closes ends the search (no later one could be closed either).
 */
export function splitCloze(html: string, decode: (s: string) => string): { text: string; parts: (ClozePart | undefined)[] } {
  const parts: (ClozePart | undefined)[] = [];
  let text = "";
  let from = 0;
  for (let open = html.indexOf("{"); open >= 0; open = html.indexOf("{", open + 1)) {
    CLOZE_START.lastIndex = open;
    const start = CLOZE_START.exec(html);
    if (!start) continue;
    const body = clozeBody(html, CLOZE_START.lastIndex);
    if (!body) break;
    const [, weight = "", type = ""] = start;
    const kind = KINDS[type];
    const answers = body.answers
      .map((a) => ({
        weight: a.weight,
        text: readClozeText(a.text, decode).trim(),
        feedback: readClozeText(a.feedback, decode).trim(),
      }))
      .filter((a) => a.text !== "");
    parts.push(kind ? { weight: weight === "" ? 1 : Number(weight), kind, answers } : undefined);
    text += setApart(html.slice(from, open)) + clozeMarker(parts.length - 1);
    from = body.end;
    open = body.end - 1;
  }
  return { text: text + setApart(html.slice(from)), parts };
}
