// How each figure is written on the page. The exact number the API answered goes into the
// element's data-value (sorting reads it, and so do the browser tests); the text is rounded.
export const DASH = "—";

const fixed = (digits) => (value) => (value === null || value === undefined ? DASH : value.toFixed(digits));

/** Scores are percentages (0–100) rounded by the API to 2 decimals; their mean and spread too. */
export const score = fixed(2);
/** Difficulty, discrimination, reliability, point-biserial: 0–1 or −1–1. */
export const ratio = fixed(3);
/** Points (mean total points of those who chose an option). */
export const points = fixed(2);
/** A share (0–1) as a percentage. */
export const share = (value) => (value === null || value === undefined ? DASH : `${(value * 100).toFixed(1)}%`);
/** Counts. */
export const count = (value) => (value === null || value === undefined ? DASH : String(value));

/** data-value: the number as the API wrote it, "" for null. */
export const raw = (value) => (value === null || value === undefined ? "" : String(value));

export const FLAG_LABELS = {
  negative_discrimination: "negative discrimination",
  low_discrimination: "low discrimination",
  too_easy: "too easy",
  too_hard: "too hard",
  distractor_attracts_strong: "distractor attracts strong",
};

export const flagLabel = (flag) => FLAG_LABELS[flag] ?? flag.replaceAll("_", " ");
