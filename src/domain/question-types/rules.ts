import { forbiddenControlCharacter, isWellFormedUnicode, TEXT_MESSAGES } from "../../lib/text";
import { divRoundHalfUp } from "../points";
import type { Score, Scoring } from "./type";

/** The rules several question types share: text responses, the row's byte counts, shares of points. */

/** The longest short-text response, in UTF-16 code units (docs/security.md: rows stay bounded). */
export const MAX_SHORT_TEXT_RESPONSE_LENGTH = 1_000;
/** The longest essay, in UTF-16 code units. */
export const MAX_ESSAY_LENGTH = 20_000;
/** The longest review feedback, in UTF-16 code units. */
export const MAX_REVIEW_FEEDBACK_LENGTH = 2_000;

/**
 * Bytes of a submission's row (UTF-8 JSON, 3 bytes per UTF-16 code unit at most; ids ≤ 64
 * characters): an answer's entry without its response, one quoted id with its separators, and one
 * short text.
 */
export const ROW_BYTES = {
  /**
   * {"question_id":…,"response":…,"seq":…,"saved_at":…} and its results entry, without the
   * response: 291 at most (230 before the seq, up to 16 digits, and saved_at, 24 characters).
   */
  entry: 295,
  id: 70,
  text: 3 * MAX_SHORT_TEXT_RESPONSE_LENGTH + 2,
} as const;

/** A short-text response (or a blank's): a bounded string of well-formed, printable text. */
export function textResponseProblem(response: unknown, maxLength = MAX_SHORT_TEXT_RESPONSE_LENGTH): string | undefined {
  if (typeof response !== "string") return "must be a string";
  if (response.length > maxLength) return `must be at most ${maxLength} characters`;
  if (!isWellFormedUnicode(response)) return TEXT_MESSAGES.lone_surrogate;
  // Tab, line feed and carriage return are allowed; other control characters are not.
  return forbiddenControlCharacter(response, true) === undefined ? undefined : TEXT_MESSAGES.control;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** An array of strings only (for..of, unlike every, visits holes of sparse arrays as undefined). */
export function isStringArray(response: unknown): response is string[] {
  if (!Array.isArray(response)) return false;
  for (const item of response) if (typeof item !== "string") return false;
  return true;
}

/** An object of strings only: a matching's or a fill-in-the-blanks' response shape. */
export const isStringRecord = (response: unknown): response is Record<string, string> =>
  isPlainObject(response) && Object.values(response).every((v) => typeof v === "string");

/** Full points when `ok`, else none. */
export const allOrNothing = (ok: boolean, possible: number): Score => ({ correct: ok, earned: ok ? possible : 0 });

/** Full points for all parts right; under `partial`, the share of the parts right (rounded half up). */
export function share(right: number, parts: number, scoring: Scoring, possible: number): Score {
  const exact = right === parts;
  if (exact || scoring === "all_or_nothing" || parts === 0) return { correct: exact, earned: exact ? possible : 0 };
  return { correct: false, earned: Number(divRoundHalfUp(BigInt(possible) * BigInt(right), BigInt(parts))) };
}

const WHITESPACE_RUN = /\s+/gu;

export function normalizeText(s: string, caseSensitive: boolean): string {
  // NFKC first: it maps compatibility spaces (e.g. U+3000) and full-width
  // letters to their plain forms before whitespace folding and lower-casing.
  const folded = s.normalize("NFKC").trim().replace(WHITESPACE_RUN, " ");
  return caseSensitive ? folded : folded.toLowerCase();
}

/** Whether a typed answer is one of the accepted answers, compared as normalizeText folds them. */
export function acceptsText(accepted: readonly string[], caseSensitive: boolean, response: string): boolean {
  const given = normalizeText(response, caseSensitive);
  return accepted.some((a) => normalizeText(a, caseSensitive) === given);
}
