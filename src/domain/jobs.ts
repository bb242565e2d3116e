import type { QuestionType } from "./questions";

/**
 * Long work the API runs in the background (GET /v1/jobs/{id}): regrades, LTI resyncs
 * (src/lti/resync.ts) and question-bank imports (src/imports).
 */
export const JOB_TYPES = ["regrade", "lti_resync", "import"] as const;

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;

/** How a regrade scores the listed questions (docs/item-analysis.md). */
export const REGRADE_POLICIES = ["current_key", "full_credit", "higher_of"] as const;
export type RegradePolicy = (typeof REGRADE_POLICIES)[number];

/**
 * Why an import job failed (`error.code`, docs/import-export.md): the file's refusals, the importer's own
 * limit, a quiz deleted meanwhile, or a failure of the service's (retried, then given up).
 */
export const IMPORT_ERROR_CODES = [
  "unreadable_file",
  "unsafe_xml",
  "unsafe_package",
  "unknown_format",
  "too_many_items",
  "too_complex",
  "not_found",
  "internal_error",
] as const;
export type ImportErrorCode = (typeof IMPORT_ERROR_CODES)[number];

/** The formats an import reads (docs/import-export.md); src/interchange holds the readers. */
export const IMPORT_FORMATS = ["qti", "gift", "moodle_xml", "aiken"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** One source item's line in a finished import's report. */
export interface ImportReportLine {
  source_id: string;
  title?: string;
  status: "imported" | "approximated" | "skipped";
  question_id?: string;
  type?: QuestionType;
  notes: string[];
}

/** What a succeeded import reports (jobs.result). */
export interface ImportJobResult {
  quiz_id: string | null;
  format: ImportFormat;
  items_total: number;
  imported: number;
  approximated: number;
  skipped: number;
  report: ImportReportLine[];
}
