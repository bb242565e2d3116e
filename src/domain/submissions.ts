/** A submission is open (its answers may change) until it is graded, once. */
export const SUBMISSION_STATUSES = ["open", "graded"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];
