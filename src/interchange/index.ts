/**
 * Question banks in and out (docs/import-export.md), as values: `readQuestionBank` turns an upload into
 * question inputs with their report, `exportQuiz` turns a quiz into a file. Neither does I/O; the
 * HTTP layer stores, queues and answers. Refusals are InterchangeErrors with the codes of docs/import-export.md.
 */

import { BUDGET, tooManyItems, WorkBudget } from "./budget";
import { InterchangeError } from "./errors";
import type { ImportFormat } from "./formats";
import { FORMATS, formatOf } from "./formats";
import { fileStart } from "./formats/recognise";
import type { ImportResult } from "./types";

export { BUDGET } from "./budget";
export { InterchangeError, type InterchangeErrorCode } from "./errors";
export { exportQuiz, fileSlug } from "./export";
export {
  EXPORT_FORMATS,
  type ExportFormat,
  IMPORT_FORMATS,
  IMPORT_MEDIA_TYPE_CONTENTS,
  IMPORT_MEDIA_TYPES,
  type ImportFormat,
} from "./formats";
export { RECOGNISE_PREFIX_BYTES } from "./formats/recognise";
export type { ImportedImage } from "./images";
export type { ExportAsset } from "./rich";
export type * from "./types";

/** The format of an upload, told from its start: the format that claims it most surely (formats/). */
export function recogniseFormat(bytes: Uint8Array, mediaType = ""): ImportFormat {
  const start = fileStart(bytes, mediaType);
  if (start === undefined) throw new InterchangeError("unknown_format", "The file is neither a zip nor UTF-8 or UTF-16 text.");
  let best: { id: ImportFormat; sure: number } | undefined;
  for (const format of FORMATS) {
    const sure = format.recognise(start);
    if (sure > 0 && sure > (best?.sure ?? 0)) best = { id: format.id, sure };
  }
  if (best) return best.id;
  if (!start.plain)
    throw new InterchangeError("unknown_format", `An XML file whose root <${start.root ?? "?"}> is neither QTI nor Moodle XML.`);
  throw new InterchangeError("unknown_format", "The text is neither GIFT (answers in braces) nor Aiken (an ANSWER: line).");
}

export interface ReadOptions {
  /** The upload's media type (used to recognise the format when none is given). */
  mediaType?: string;
  format?: ImportFormat;
  /** The service's origin, so that an absolute URL of one of its assets is kept as the asset's path. */
  origin?: string;
}

/**
 * The upload's items in source order, each with its report entry; refusals throw InterchangeError.
 * One work budget (budget.ts) covers the whole read, whichever reader it takes. Where the items
 * go, and whether the quiz has room for them, is the import's to decide (src/imports/plan.ts).
 */
export function readQuestionBank(bytes: Uint8Array, options: ReadOptions = {}): ImportResult<ImportFormat> {
  const format = options.format ?? recogniseFormat(bytes, options.mediaType);
  const result = formatOf(format).read(bytes, new WorkBudget(), { origin: options.origin });
  if (result.items.length > BUDGET.items) throw tooManyItems(result.items.length);
  return result;
}
