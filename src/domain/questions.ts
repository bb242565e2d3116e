/**
 * What a question is, as the grading engine reads it: its types, the fields each type keeps as
 * its definition, and the conversion of a stored question into those terms. No I/O.
 */

export const QUESTION_TYPES = [
  "single_choice",
  "multiple_choice",
  "true_false",
  "short_text",
  "numeric",
  "ordering",
  "matching",
  "fill_in_blanks",
  "essay",
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** How a multiple-choice, ordering or matching question scores an answer that is not exactly the key. */
export const MULTIPLE_CHOICE_SCORINGS = ["all_or_nothing", "partial"] as const;
type MultipleChoiceScoring = (typeof MULTIPLE_CHOICE_SCORINGS)[number];

/** The fields of each type that make up its key or its scoring, stored as the question's definition. */
export const TYPE_FIELDS: Record<QuestionType, readonly string[]> = {
  single_choice: ["options", "correct_option_id"],
  multiple_choice: ["options", "correct_option_ids", "scoring"],
  true_false: ["correct"],
  short_text: ["accepted_answers", "case_sensitive"],
  numeric: ["correct_value", "tolerance"],
  ordering: ["items", "correct_order", "scoring"],
  matching: ["prompts", "choices", "correct_matches", "scoring"],
  fill_in_blanks: ["text", "blanks", "scoring"],
  essay: ["rubric", "max_words"],
};

interface ChoiceOption {
  id: string;
  text: string;
  /** A choice option's own feedback (docs/import-export.md): shown with its result once the key is revealed; never graded. */
  feedback?: string;
}

/** The messages shown with an answer's result, by whether it was correct. */
export interface QuestionFeedback {
  correct?: string;
  incorrect?: string;
}

interface QuestionBase {
  id: string;
  points: number;
  feedback: QuestionFeedback;
  explanation?: string | null;
}

interface SingleChoiceQuestion extends QuestionBase {
  type: "single_choice";
  options: ChoiceOption[];
  correct_option_id: string;
}

export interface MultipleChoiceQuestion extends QuestionBase {
  type: "multiple_choice";
  options: ChoiceOption[];
  correct_option_ids: string[];
  scoring: MultipleChoiceScoring;
}

interface TrueFalseQuestion extends QuestionBase {
  type: "true_false";
  correct: boolean;
}

interface ShortTextQuestion extends QuestionBase {
  type: "short_text";
  accepted_answers: string[];
  case_sensitive: boolean;
}

interface NumericQuestion extends QuestionBase {
  type: "numeric";
  correct_value: number;
  tolerance: number;
}

/** Put the items in order: `partial` earns the share of items in their place. */
interface OrderingQuestion extends QuestionBase {
  type: "ordering";
  items: ChoiceOption[];
  correct_order: string[];
  scoring: MultipleChoiceScoring;
}

/** Match each prompt to a choice (prompts may share one): `partial` earns the share of prompts matched. */
interface MatchingQuestion extends QuestionBase {
  type: "matching";
  prompts: ChoiceOption[];
  choices: ChoiceOption[];
  correct_matches: Record<string, string>;
  scoring: MultipleChoiceScoring;
}

/** A text with {{blank_id}} markers; each blank takes short-text answers. `partial` (the default) earns the share of blanks right. */
interface FillInBlanksQuestion extends QuestionBase {
  type: "fill_in_blanks";
  text: string;
  blanks: { id: string; accepted_answers: string[]; case_sensitive: boolean }[];
  scoring: MultipleChoiceScoring;
}

/** Scored by a person: an answered essay leaves its submission needing review. */
interface EssayQuestion extends QuestionBase {
  type: "essay";
  rubric?: string | null;
  max_words?: number | null;
}

export type GradableQuestion =
  | SingleChoiceQuestion
  | MultipleChoiceQuestion
  | TrueFalseQuestion
  | ShortTextQuestion
  | NumericQuestion
  | OrderingQuestion
  | MatchingQuestion
  | FillInBlanksQuestion
  | EssayQuestion;

/** A question as it is stored: the common fields, and its type's fields (TYPE_FIELDS) as its definition. */
export interface StoredQuestion {
  type: QuestionType;
  prompt: string;
  points: number;
  feedback: QuestionFeedback;
  explanation: string | null;
  definition: Record<string, unknown>;
  /** The pool the question is drawn from (quiz settings.pools); null: always presented. */
  pool?: string | null;
  /** An author's name and labels (docs/import-export.md); not part of grading. */
  title?: string | null;
  tags?: string[];
}

/**
 * What grading reads of a definition: the definition without option feedback, which is shown
 * with results but scores nothing, so that changing it makes no new version of the question.
 */
export function gradedDefinition(definition: Record<string, unknown>): Record<string, unknown> {
  const options = definition.options;
  if (!Array.isArray(options)) return definition;
  return { ...definition, options: options.map(({ feedback: _feedback, ...option }: { feedback?: unknown }) => option) };
}

/**
 * Lists whose ids, when the author leaves them out, are random rather than a, b, … by position: an
 * ordering's items and a matching's choices, whose listed order would otherwise state the key (docs/security.md).
 */
export const RANDOM_ID_LISTS: readonly string[] = ["items", "choices"];

const RANDOM_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
/** The length of a random item or choice id. */
const RANDOM_ID_LENGTH = 8;
/** The largest multiple of the alphabet's 36 letters under 256: bytes from it on are drawn again, so each letter is as likely. */
const UNBIASED_BYTES = 252;

/** A random id: RANDOM_ID_LENGTH characters of [a-z0-9], each uniform, from the platform's CSPRNG. */
function randomListId(): string {
  let id = "";
  while (id.length < RANDOM_ID_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(RANDOM_ID_LENGTH))) {
      if (byte < UNBIASED_BYTES && id.length < RANDOM_ID_LENGTH) id += RANDOM_ID_ALPHABET[byte % RANDOM_ID_ALPHABET.length];
    }
  }
  return id;
}

/** The id a list gives its entry at `index` when the author leaves it out and the list is not random: a, b, … */
export const positionalId = (index: number): string => String.fromCharCode(97 + index);

/**
 * A list's ids: those the author gave, kept; the others a, b, … by position, or, where `random`,
 * fresh random ids unlike any other id of the list.
 */
export function listIds(list: readonly { id?: string }[], random: boolean): string[] {
  const taken = new Set(list.flatMap((entry) => (entry.id === undefined ? [] : [entry.id])));
  return list.map((entry, i) => {
    if (entry.id !== undefined) return entry.id;
    if (!random) return positionalId(i);
    let id = randomListId();
    while (taken.has(id)) id = randomListId();
    taken.add(id);
    return id;
  });
}

/**
 * A matching written as pairs (and distractors) in its usual form: a prompt per pair, a, b, … in
 * order; a choice per distinct text, the pairs' first and then the distractors', with random ids,
 * so that prompts sharing a choice text share the choice; each prompt matched to its pair's choice.
 */
export function matchingFromPairs(pairs: readonly { prompt: string; choice: string }[], distractors: readonly string[]) {
  const texts = [...new Set([...pairs.map((p) => p.choice), ...distractors])];
  const ids = listIds(
    texts.map(() => ({})),
    true,
  );
  const choiceOf = new Map(texts.map((text, i) => [text, ids[i] as string]));
  const prompts = pairs.map((pair, i) => ({ id: positionalId(i), text: pair.prompt }));
  return {
    prompts,
    choices: texts.map((text, i) => ({ id: ids[i] as string, text })),
    correct_matches: Object.fromEntries(pairs.map((pair, i) => [positionalId(i), choiceOf.get(pair.choice) as string])),
  };
}

/** A stored question (or a version of one, with its question's id) in the grading engine's terms. */
export function gradableQuestion(
  stored: Pick<StoredQuestion, "type" | "points" | "feedback" | "explanation" | "definition"> & { id: string },
): GradableQuestion {
  return {
    id: stored.id,
    type: stored.type,
    points: stored.points,
    feedback: stored.feedback,
    explanation: stored.explanation,
    ...stored.definition,
  } as GradableQuestion;
}
