import type { ContentFormat } from "./content/question-content";
import type { GradableQuestion, QuestionType } from "./question-types";
import type { QuestionFeedback } from "./question-types/type";

/**
 * A question as it is stored, and its conversion into the grading engine's terms (each type's
 * own fields and rules are its module's: src/domain/question-types/). No I/O.
 */

/** A question as it is stored: the common fields, and its type's fields (TYPE_FIELDS) as its definition. */
export interface StoredQuestion {
  type: QuestionType;
  prompt: string;
  /** How its texts are read; "text" when left out. */
  contentFormat?: ContentFormat;
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
