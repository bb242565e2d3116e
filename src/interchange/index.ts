/**
 * Question banks in and out (docs/import-export.md), as values: `readQuestionBank` turns an upload into
 * question inputs with their report, `exportQuiz` turns a quiz into a file. Neither does I/O; the
 * HTTP layer stores, queues and answers. Refusals are InterchangeErrors with the codes of docs/import-export.md.
 */
import { readAiken } from "./aiken";
import { BUDGET, tooManyItems, WorkBudget } from "./budget";
import { LIMITS, skip } from "./check";
import { InterchangeError } from "./errors";
import { readGift } from "./gift-read";
import { readMoodleXml } from "./moodle-read";
import { readQtiPackage, readQtiXml } from "./qti-read";
import type { ExportFormat, ImportFormat, ImportResult } from "./types";
import { decodeText } from "./xml";
import { isZip } from "./zip";

export { IMPORT_FORMATS } from "../domain/jobs";
export { BUDGET } from "./budget";
export { InterchangeError, type InterchangeErrorCode } from "./errors";
export { exportQuiz, fileSlug } from "./export";
export type * from "./types";
export const EXPORT_FORMATS = ["qti3", "qti21", "gift", "moodle_xml"] as const satisfies readonly ExportFormat[];

/** The upload media types docs/import-export.md lists; anything else is a 415 before any reading. */
export const IMPORT_MEDIA_TYPES = ["application/zip", "application/xml", "text/xml", "text/plain"] as const;

/**
 * How much of an upload the request reads to tell its format: the request path stays cheap however
 * large or hostile the file (docs/import-export.md). A file whose marks come later is recognised
 * by naming its `format`.
 */
export const RECOGNISE_PREFIX_BYTES = 64 * 1024;

/** The start of a file as text, a character cut at the end left out; undefined when it is not UTF-8 or UTF-16. */
function prefixText(bytes: Uint8Array): string | undefined {
  const [a, b] = [bytes[0], bytes[1]];
  const encoding = a === 0xff && b === 0xfe ? "utf-16le" : a === 0xfe && b === 0xff ? "utf-16be" : "utf-8";
  try {
    // `stream: true` leaves out a sequence cut by the prefix's end instead of calling it malformed.
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(bytes.subarray(0, RECOGNISE_PREFIX_BYTES), {
      stream: true,
    });
  } catch {
    return undefined;
  }
}

const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\n" || c === "\r";

/** Where the construct at `i` (a PI, comment or DOCTYPE) ends, -1 when it does not end in the text, undefined when `i` starts none. */
function prologEnd(text: string, i: number): number | undefined {
  if (text.startsWith("<?", i)) return after(text, "?>", i + 2);
  if (text.startsWith("<!--", i)) return after(text, "-->", i + 4);
  if (!/^<!DOCTYPE/i.test(text.slice(i, i + 9))) return undefined;
  const gt = text.indexOf(">", i);
  const bracket = text.indexOf("[", i);
  if (bracket < 0 || (gt >= 0 && gt < bracket)) return gt < 0 ? -1 : gt + 1;
  // An internal subset: "]", then white space and ">".
  const end = text.indexOf("]", bracket);
  if (end < 0) return -1;
  let j = end + 1;
  while (isSpace(text[j])) j++;
  return text[j] === ">" ? j + 1 : -1;
}

const after = (text: string, marker: string, from: number) => {
  const end = text.indexOf(marker, from);
  return end < 0 ? -1 : end + marker.length;
};

/**
 * The root element's name, past white space, the XML declaration, comments, processing
 * instructions and a DOCTYPE (refused later, by the reader); undefined when the text does not
 * start as XML or its root lies past the prefix. Each construct is skipped with one indexOf.
 */
function rootName(text: string): string | undefined {
  let i = 0;
  for (;;) {
    while (isSpace(text[i])) i++;
    if (text[i] !== "<") return undefined;
    const end = prologEnd(text, i);
    if (end === undefined) break;
    if (end < 0) return undefined;
    i = end;
  }
  const name = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(i, i + 256))?.[1];
  return name?.slice(name.lastIndexOf(":") + 1);
}

/** Aiken's marks, line by line: an `ANSWER: X` line and an option line (`A.` or `A)`). */
const looksLikeAiken = (lines: string[]) =>
  lines.some((l) => /^ANSWER:\s*[A-Za-z]$/.test(l)) && lines.some((l) => /^[A-Z][.)][ \t]?\S/.test(l));

/** GIFT's marks: answers in braces (a `{` followed by a `}` with no brace between), or a line starting with `::` or `$CATEGORY:`. */
function looksLikeGift(text: string, lines: string[]): boolean {
  let open = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "{") open = true;
    else if (text[i] === "}" && open) return true;
  }
  return lines.some((l) => l.startsWith("::") || l.startsWith("$CATEGORY:"));
}

/** The format of an upload, told from its start (a zip is an IMS package; XML by its root; text by its marks). */
export function recogniseFormat(bytes: Uint8Array, mediaType = ""): ImportFormat {
  if (isZip(bytes)) return "qti";
  const text = prefixText(bytes)?.replace(/^\ufeff/, "");
  if (text === undefined) throw new InterchangeError("unknown_format", "The file is neither a zip nor UTF-8 or UTF-16 text.");
  const root = rootName(text);
  if (root === "quiz") return "moodle_xml";
  if (root && /^(assessmentItem|assessmentTest|qti-assessment-item|qti-assessment-test)$/.test(root)) return "qti";
  if (root || /xml/.test(mediaType))
    throw new InterchangeError("unknown_format", `An XML file whose root <${root ?? "?"}> is neither QTI nor Moodle XML.`);
  const lines = text.split(/\r\n|\r|\n/).map((l) => l.trim());
  if (looksLikeAiken(lines)) return "aiken";
  if (looksLikeGift(text, lines)) return "gift";
  throw new InterchangeError("unknown_format", "The text is neither GIFT (answers in braces) nor Aiken (an ANSWER: line).");
}

export interface ReadOptions {
  /** The upload's media type (used to recognise the format when none is given). */
  mediaType?: string;
  format?: ImportFormat;
  /** How many questions may still be added (200 for a new quiz, fewer when appending). */
  capacity?: number;
}

/**
 * The upload's items in source order, each with its report entry; refusals throw InterchangeError.
 * One work budget (budget.ts) covers the whole read, whichever reader it takes.
 */
export function readQuestionBank(bytes: Uint8Array, options: ReadOptions = {}): ImportResult {
  const format = options.format ?? recogniseFormat(bytes, options.mediaType);
  const budget = new WorkBudget();
  const result =
    format === "qti"
      ? isZip(bytes)
        ? readQtiPackage(bytes, budget)
        : readQtiXml(bytes, budget)
      : format === "moodle_xml"
        ? readMoodleXml(decodeText(bytes), budget)
        : format === "gift"
          ? readGift(decodeText(bytes))
          : readAiken(decodeText(bytes));
  if (result.items.length > BUDGET.items) throw tooManyItems(result.items.length);
  let room = options.capacity ?? LIMITS.questions;
  result.items = result.items.map((item) => {
    if (!item.question) return item;
    if (room > 0) {
      room--;
      return item;
    }
    return skip(item.entry, `Skipped: over ${LIMITS.questions} questions in the quiz.`, item.question.type);
  });
  return result;
}
