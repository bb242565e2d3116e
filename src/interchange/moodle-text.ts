/**
 * Moodle XML's texts (`<questiontext format="html"><text>…</text></questiontext>`) and its
 * embedded-answer (Cloze) syntax `{2:SHORTANSWER:=Paris#Yes~%50%Lyon}`.
 */
import { htmlText, LOSS, type Losses, looksLikeHtml } from "./content";
import { child, textOf, type XmlElement } from "./xml";

/** The text of a Moodle text element in the service's plain text, by its `format`. */
export function moodleText(e: XmlElement | undefined, losses: Losses): string {
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

/** `{weight:TYPE:` opening an embedded answer, matched at one place (sticky). */
const CLOZE_START = /\{(\d*):([A-Z_]+):/y;
/** Where each embedded answer stood, once the text around it has been reduced to plain text. */
const clozeMarker = (i: number) => `\ue010${i}\ue011`;
export const CLOZE_MARKER = /\ue010(\d+)\ue011/g;

const LINE_TERMINATORS = new Set(["\n", "\r", "\u2028", "\u2029"]);

/**
 * The "}" that closes an answer list starting at `from` (a backslash escapes the character after it,
 * but not a line break), as its index; else `-(where the scan stopped) - 1`.
 */
function closingBrace(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === "}") return i;
    if (s[i] === "\\") {
      if (i + 1 >= s.length || LINE_TERMINATORS.has(s[i + 1] as string)) return -i - 1;
      i++;
    }
  }
  return -s.length - 1;
}

const unescapeCloze = (s: string) => s.replace(/\\([}~#\\/"])/g, "$1");

/** The embedded answers of a Cloze text, and the text with a marker in the place of each. */
/**
 * The embedded answers of a Cloze text, and the text with a marker in the place of each:
 * `{weight:TYPE:answers}`, the answers escaping "}" "~" "#" with a backslash. One pass: after a
 * list that never closes, no later one that starts before where its scan stopped is scanned again
 * (its scan would stop at the same place), so a text of unclosed `{1:SA:` costs its length, not its square.
 */
export function splitCloze(html: string): { text: string; parts: (ClozePart | undefined)[] } {
  const parts: (ClozePart | undefined)[] = [];
  const out: string[] = [];
  let copied = 0;
  let stopped = -1;
  for (let at = html.indexOf("{"); at >= 0; at = html.indexOf("{", at + 1)) {
    CLOZE_START.lastIndex = at;
    const start = CLOZE_START.exec(html);
    if (!start || CLOZE_START.lastIndex <= stopped) continue;
    const end = closingBrace(html, CLOZE_START.lastIndex);
    if (end < 0) {
      stopped = -end - 1;
      continue;
    }
    out.push(html.slice(copied, at), embedded(start[1] ?? "", start[2] ?? "", html.slice(CLOZE_START.lastIndex, end)));
    copied = end + 1;
    at = end;
  }
  out.push(html.slice(copied));
  return { text: out.join(""), parts };

  function embedded(weight: string, type: string, body: string): string {
    const kind = KINDS[type];
    const answers = body
      .split(/(?<!\\)~/)
      .map((raw) => {
        let s = raw.trim();
        let fraction = 0;
        if (s.startsWith("=")) {
          fraction = 1;
          s = s.slice(1);
        } else {
          const w = /^%(-?\d+(?:\.\d+)?)%/.exec(s);
          if (w) {
            fraction = Number(w[1]) / 100;
            s = s.slice(w[0].length);
          }
        }
        const hash = s.search(/(?<!\\)#/);
        return {
          text: unescapeCloze(hash >= 0 ? s.slice(0, hash) : s).trim(),
          weight: fraction,
          feedback: hash >= 0 ? unescapeCloze(s.slice(hash + 1)).trim() : "",
        };
      })
      .filter((a) => a.text !== "");
    parts.push(kind ? { weight: weight === "" ? 1 : Number(weight), kind, answers } : undefined);
    return clozeMarker(parts.length - 1);
  }
}
