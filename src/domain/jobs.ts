/** Long work the API runs in the background (GET /v1/jobs/{id}): regrades, and LTI resyncs (src/lti/resync.ts). */
export const JOB_TYPES = ["regrade", "lti_resync"] as const;

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;

/** How a regrade scores the listed questions (CONTRACT §9). */
export const REGRADE_POLICIES = ["current_key", "full_credit", "higher_of"] as const;
export type RegradePolicy = (typeof REGRADE_POLICIES)[number];
