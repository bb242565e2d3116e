import { hasScope } from "../lib/scopes";
import { policyReveals, type RevealFacts } from "./attempts";
import type { ContentFormat } from "./content/question-content";
import { ANSWER_KEY_FIELDS, type GradableQuestion, KEY_ORDERED_LISTS, moduleOf, type QuestionType } from "./question-types";
import type { QuestionFeedback } from "./question-types/type";

/**
 * Who sees answer keys, in one place. A question's key is shown only to credentials that could
 * have written it (quizzes:write); a graded submission's results show each answer's key
 * (`correct_answer`) when the quiz's reveal policy says so, to whoever may read the results.
 * The key is more than the right answers (docs/security.md): a question's feedback and explanation and any
 * option's feedback tell it too, and so would an ordering's items or a matching's choices listed
 * in the key's order, so until the key is revealed they are hidden or listed by id. Which fields
 * are key, and which lists are in the key's order, each type's module says (src/domain/question-types/).
 */

/** Whether a credential with these scopes sees questions' key fields. */
export const revealsKeys = (scopes: readonly string[]): boolean => hasScope(scopes, "quizzes:write");

const isEntry = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** An option (item, prompt, choice) without any feedback field: option-level feedback is key. */
function withoutFeedback(entry: unknown): unknown {
  if (!isEntry(entry)) return entry;
  return Object.fromEntries(Object.entries(entry).filter(([field]) => !/feedback/i.test(field)));
}

/** By id, in code-unit order: the same for every key. */
const byId = (a: unknown, b: unknown): number => {
  const [x, y] = [String(isEntry(a) ? a.id : ""), String(isEntry(b) ? b.id : "")];
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * A question's definition as shown. Revealed: as stored. Hidden: without its key fields, without
 * any option-level feedback, and with an ordering's items and a matching's choices sorted by id,
 * so that nothing shown depends on the key.
 */
export function shownDefinition(definition: Record<string, unknown>, reveal: boolean): Record<string, unknown> {
  const shown = { ...definition };
  if (reveal) return shown;
  for (const field of ANSWER_KEY_FIELDS) delete shown[field];
  for (const [field, value] of Object.entries(shown)) {
    if (!Array.isArray(value)) continue;
    const entries = value.map(withoutFeedback);
    shown[field] = KEY_ORDERED_LISTS.includes(field) ? entries.sort(byId) : entries;
  }
  return shown;
}

/** A question's feedback and explanation as shown: part of the key, so `{}` and null until it is revealed. */
export const shownCommentary = (
  question: { feedback: QuestionFeedback; explanation: string | null },
  reveal: boolean,
): { feedback: QuestionFeedback; explanation: string | null } =>
  reveal ? { feedback: question.feedback, explanation: question.explanation } : { feedback: {}, explanation: null };

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

/**
 * The feedback of each option a response chose (docs/import-export.md), as a result shows it: only when the
 * results reveal the key (option feedback is part of it), only for choice questions, and only
 * options that have feedback, in the question's order; undefined when there is none to show.
 */
export function chosenOptionFeedback(
  question: GradableQuestion,
  response: unknown,
  reveal: boolean,
): { option_id: string; feedback: string }[] | undefined {
  const { choice } = moduleOf(question);
  if (!reveal || !choice) return undefined;
  const chosen = new Set<unknown>(Array.isArray(response) ? response : [response]);
  const shown = choice
    .options(question)
    .flatMap((o) => (chosen.has(o.id) && o.feedback !== undefined ? [{ option_id: o.id, feedback: o.feedback }] : []));
  return shown.length > 0 ? shown : undefined;
}

/**
 * A question as a submission presents it to a credential (`questions[].question`, §17): its type,
 * prompt and points, and its definition as shownDefinition shows it, with the presented list
 * (choice options when shuffled, ordering items, matching choices) in the submission's own order.
 */
export function presentedQuestion(
  question: {
    type: QuestionType;
    prompt: string;
    points: number;
    definition: Record<string, unknown>;
    contentFormat?: ContentFormat;
  },
  optionOrder: readonly string[] | undefined,
  reveal: boolean,
): Record<string, unknown> {
  const shown = shownDefinition(question.definition, reveal);
  const list = moduleOf(question).presentation?.list;
  const entries = list === undefined ? undefined : shown[list];
  if (list !== undefined && optionOrder !== undefined && Array.isArray(entries)) {
    const byEntryId = new Map(entries.map((entry) => [isEntry(entry) ? entry.id : undefined, entry]));
    shown[list] = optionOrder.flatMap((id) => (byEntryId.has(id) ? [byEntryId.get(id)] : []));
  }
  // content_format: how a player shows its texts (docs/content.md); not part of the key.
  return {
    type: question.type,
    content_format: question.contentFormat ?? "text",
    prompt: question.prompt,
    points: question.points,
    ...shown,
  };
}
