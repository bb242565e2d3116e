/**
 * A submission is open (its answers may change) until it is graded, once; an answered essay makes
 * grading leave it needing review, and it is graded when its last essay is reviewed.
 */
export const SUBMISSION_STATUSES = ["open", "needs_review", "graded"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** A question as a submission presents it: its place, and the order of its options when shuffled. */
export interface PresentedQuestion {
  question_id: string;
  position: number;
  option_order?: string[];
}

/** Who graded a submission: a grade call, or the cron at its deadline. */
export const GRADED_BY = ["request", "deadline"] as const;
export type GradedBy = (typeof GRADED_BY)[number];
