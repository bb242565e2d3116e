import { hasScope } from "../lib/scopes";
import { policyReveals, type RevealFacts } from "./attempts";

/**
 * Who sees answer keys, in one place. A question's key fields are shown only to credentials that
 * could have written them (quizzes:write); a graded submission's results show each answer's key
 * (`correct_answer`) when the quiz's settings say so, to whoever may read the results.
 */

/** Fields of a question's definition that give the answer away. */
export const ANSWER_KEY_FIELDS = [
  "correct_option_id",
  "correct_option_ids",
  "correct",
  "accepted_answers",
  "correct_value",
  "correct_order",
  "correct_matches",
  "blanks",
  "rubric",
];

/** Whether a credential with these scopes sees questions' key fields. */
export const revealsKeys = (scopes: readonly string[]): boolean => hasScope(scopes, "quizzes:write");

/** A question's definition as shown: without its key fields unless they are revealed. */
export function shownDefinition(definition: Record<string, unknown>, reveal: boolean): Record<string, unknown> {
  const shown = { ...definition };
  if (!reveal) for (const field of ANSWER_KEY_FIELDS) delete shown[field];
  return shown;
}

/**
 * Whether a submission's results show each answer's key: always to a credential that may write
 * quizzes, otherwise as the quiz's reveal policy says (domain/attempts.ts).
 */
export const resultsRevealKeys = (scopes: readonly string[], facts: RevealFacts): boolean =>
  revealsKeys(scopes) || policyReveals(facts);

/** An answer's result as shown: with its key (computed only when shown) when the results reveal keys. */
export function withAnswerKey<T extends object>(
  answer: T,
  reveal: boolean,
  key: () => unknown,
): T & { correct_answer?: unknown } {
  return reveal ? { ...answer, correct_answer: key() } : answer;
}
