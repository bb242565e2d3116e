import { TYPE_FIELDS } from "./question-types";
import type { StoredQuestion } from "./questions";

/** The question as the input it was made from, so that a patch can be merged into it and revalidated. */
export function questionAsInput(stored: StoredQuestion): Record<string, unknown> {
  return {
    type: stored.type,
    ...(stored.title == null ? {} : { title: stored.title }),
    ...(stored.tags === undefined || stored.tags.length === 0 ? {} : { tags: stored.tags }),
    ...(stored.contentFormat === undefined ? {} : { content_format: stored.contentFormat }),
    prompt: stored.prompt,
    points: stored.points,
    feedback: stored.feedback,
    ...(stored.explanation === null ? {} : { explanation: stored.explanation }),
    ...(stored.pool == null ? {} : { pool: stored.pool }),
    ...stored.definition,
  };
}

/** A matching's key in its usual form, which pairs (and distractors) state instead. */
const PAIRED_FIELDS = ["prompts", "choices", "correct_matches"];

/** Whether a patch's items leave any id out: drawn at random, so no stored correct_order can name them. */
const leavesItemIdOut = (items: unknown): boolean =>
  Array.isArray(items) && items.some((item) => typeof item !== "object" || item === null || !("id" in item));

/**
 * A patch merged into the stored question: fields sent replace those stored, the others keep
 * their values. A new type keeps the common fields and takes its key fields from the patch
 * alone: the old type's key fields are dropped. A matching's pairs replace its stored prompts,
 * choices and matches; an ordering's items sent with ids left out and without correct_order are
 * the order as listed, as at creation. The result is input to validate as a whole.
 */
export function mergeQuestionPatch(stored: StoredQuestion, patch: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...questionAsInput(stored), ...patch };
  if (patch.type !== undefined && patch.type !== stored.type) {
    for (const field of TYPE_FIELDS[stored.type]) if (!(field in patch)) delete merged[field];
  }
  if ("pairs" in patch) for (const field of PAIRED_FIELDS) if (!(field in patch)) delete merged[field];
  if (!("correct_order" in patch) && leavesItemIdOut(patch.items)) delete merged.correct_order;
  return merged;
}
