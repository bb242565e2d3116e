/**
 * Long work the API runs in the background (GET /v1/jobs/{id}): regrades, LTI resyncs
 * (src/lti/resync.ts), question-bank imports (src/imports; the formats they read are
 * src/interchange/formats) and LTI roster syncs (src/lti/roster.ts).
 */
export const JOB_TYPES = ["regrade", "lti_resync", "import", "lti_roster"] as const;

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
