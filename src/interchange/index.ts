/**
 * Question banks in and out (docs/import-export.md), as values: `readQuestionBank` turns an upload into
 * question inputs with their report, `exportQuiz` turns a quiz into a file. Neither does I/O; the
 * HTTP layer stores, queues and answers. Refusals are InterchangeErrors with the codes of docs/import-export.md.
 */
import { readAiken } from "./aiken";
import { LIMITS, skip } from "./check";
import { InterchangeError } from "./errors";
import { readGift } from "./gift-read";
import { readMoodleXml } from "./moodle-read";
import { readQtiPackage, readQtiXml } from "./qti-read";
import type { ExportFormat, ImportFormat, ImportResult } from "./types";
import { decodeText } from "./xml";
import { isZip } from "./zip";

export { IMPORT_FORMATS } from "../domain/jobs";
export { InterchangeError, type InterchangeErrorCode } from "./errors";
export { exportQuiz, fileSlug } from "./export";
export type * from "./types";
export const EXPORT_FORMATS = ["qti3", "qti21", "gift", "moodle_xml"] as const satisfies readonly ExportFormat[];

/** The upload media types docs/import-export.md lists; anything else is a 415 before any reading. */
export const IMPORT_MEDIA_TYPES = ["application/zip", "application/xml", "text/xml", "text/plain"] as const;

/** The root element's name, past the XML declaration, comments, processing instructions and any DOCTYPE. */
function rootName(text: string): string | undefined {
  const body = text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/gi, "");
  return /^\s*<([A-Za-z_][\w.:-]*)/.exec(body)?.[1]?.replace(/^.*:/, "");
}

/** The format of an upload, told from its bytes (a zip is an IMS package; XML by its root; text by its marks). */
export function recogniseFormat(bytes: Uint8Array, mediaType = ""): ImportFormat {
  if (isZip(bytes)) return "qti";
  let text: string;
  try {
    text = decodeText(bytes);
  } catch {
    throw new InterchangeError("unknown_format", "The file is neither a zip nor UTF-8 or UTF-16 text.");
  }
  const root = rootName(text);
  if (root === "quiz") return "moodle_xml";
  if (root && /^(assessmentItem|assessmentTest|qti-assessment-item|qti-assessment-test)$/.test(root)) return "qti";
  if (root || /xml/.test(mediaType))
    throw new InterchangeError("unknown_format", `An XML file whose root <${root ?? "?"}> is neither QTI nor Moodle XML.`);
  if (/^\s*ANSWER:\s*[A-Za-z]\s*$/m.test(text) && /^\s*[A-Z][.)]\s+\S/m.test(text)) return "aiken";
  if (/\{[^{}]*\}/.test(text) || /^\s*::/m.test(text) || /^\s*\$CATEGORY:/m.test(text)) return "gift";
  throw new InterchangeError("unknown_format", "The text is neither GIFT (answers in braces) nor Aiken (an ANSWER: line).");
}

export interface ReadOptions {
  /** The upload's media type (used to recognise the format when none is given). */
  mediaType?: string;
  format?: ImportFormat;
  /** How many questions may still be added (200 for a new quiz, fewer when appending). */
  capacity?: number;
}

/** The upload's items in source order, each with its report entry; refusals throw InterchangeError. */
export function readQuestionBank(bytes: Uint8Array, options: ReadOptions = {}): ImportResult {
  const format = options.format ?? recogniseFormat(bytes, options.mediaType);
  const result =
    format === "qti"
      ? isZip(bytes)
        ? readQtiPackage(bytes)
        : readQtiXml(bytes)
      : format === "moodle_xml"
        ? readMoodleXml(decodeText(bytes))
        : format === "gift"
          ? readGift(decodeText(bytes))
          : readAiken(decodeText(bytes));
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
