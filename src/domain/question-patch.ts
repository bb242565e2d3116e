import { type StoredQuestion, TYPE_FIELDS } from "./questions";

/** The question as the input it was made from, so that a patch can be merged into it and revalidated. */
export function questionAsInput(stored: StoredQuestion): Record<string, unknown> {
  return {
    type: stored.type,
    prompt: stored.prompt,
    points: stored.points,
    feedback: stored.feedback,
    ...(stored.explanation === null ? {} : { explanation: stored.explanation }),
    ...(stored.pool == null ? {} : { pool: stored.pool }),
    ...stored.definition,
  };
}

/**
 * A patch merged into the stored question: fields sent replace those stored, the others keep
 * their values. A new type keeps the common fields and takes its key fields from the patch
 * alone: the old type's key fields are dropped. The result is input to validate as a whole.
 */
export function mergeQuestionPatch(stored: StoredQuestion, patch: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...questionAsInput(stored), ...patch };
  if (patch.type !== undefined && patch.type !== stored.type) {
    for (const field of TYPE_FIELDS[stored.type]) if (!(field in patch)) delete merged[field];
  }
  return merged;
}
