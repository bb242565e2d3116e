/**
 * Why a whole file is refused (docs/import-export.md). The HTTP layer answers these as a 400 with the code
 * or fails the import job with `error: { code, detail }`; nothing of the file is imported.
 */
export type InterchangeErrorCode =
  /** A DOCTYPE or entity declaration: refused before parsing, nothing expanded. */
  | "unsafe_xml"
  /** A zip over the entry or size limits, or with an entry path that could escape its folder. */
  | "unsafe_package"
  /** Not the format it claims to be: truncated, malformed, or holding no question. */
  | "unreadable_file"
  /** No format given and none recognised. */
  | "unknown_format"
  /** More items (questions, references to items) than an import reads (budget.ts). */
  | "too_many_items"
  /** More work than an import does: XML nodes, or steps of QTI response processing (budget.ts). */
  | "too_complex";

export class InterchangeError extends Error {
  constructor(
    readonly code: InterchangeErrorCode,
    readonly detail: string,
  ) {
    super(detail);
    this.name = "InterchangeError";
  }
}

export const unreadable = (detail: string) => new InterchangeError("unreadable_file", detail);
