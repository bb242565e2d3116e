import { contentFields, MAX_CONTENT_CHARS, MAX_NESTING, NestingTooDeep } from "../domain/content/question-content";
import { mayHoldTex, type SanitizeOptions, sanitizeHtml, type TexRenderer } from "../domain/content/sanitize";
import { loadTex } from "../domain/content/tex";
import { QuestionInput } from "../domain/question-types";
import { type FieldError, validationFailed } from "../lib/errors";
import { fieldErrors } from "../lib/validation";

/**
 * The write path's content step (CONTRACT §19): every question a request or an import stores goes
 * through here between validation and its row (questionRow takes only what this returns). A
 * `"text"` question passes unchanged; an `"html"` one has each formatted text sanitized (TeX made
 * MathML), then is validated again as a whole, so that what sanitizing changed (a `{{blank}}`
 * marker inside removed markup, two pair prompts now the same, a field now empty) is refused like
 * any other invalid question.
 */

declare const STORED: unique symbol;
/** A question input whose formatted texts are as stored. */
export type StoredQuestionInput = QuestionInput & { readonly [STORED]: true };

/**
 * One write's TeX budget: KaTeX takes about 0.2 ms a formula (docs/performance.md), and a request
 * of 200 questions of many fields each could otherwise ask for minutes of CPU. Past it → 400.
 */
const MAX_TEX_FORMULAS_PER_WRITE = 1000;
const MAX_TEX_CHARS_PER_WRITE = 200_000;

class TexBudgetExceeded extends Error {
  constructor() {
    super(
      `More than ${MAX_TEX_FORMULAS_PER_WRITE} TeX formulas (or ${MAX_TEX_CHARS_PER_WRITE} characters of TeX) in one write: write the questions in several requests.`,
    );
  }
}

/** `tex` counting what one write asks of it. */
function budgeted(tex: TexRenderer): TexRenderer {
  let formulas = 0;
  let chars = 0;
  return (source, display) => {
    formulas++;
    chars += source.length;
    if (formulas > MAX_TEX_FORMULAS_PER_WRITE || chars > MAX_TEX_CHARS_PER_WRITE) throw new TexBudgetExceeded();
    return tex(source, display);
  };
}

const joinPath = (path: (string | number)[]) =>
  path.reduce<string>((out, part) => (typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${part}` : part), "");

/** The question with its formatted texts as stored, or the problems that refuse it. */
export function storeContent(
  input: QuestionInput,
  options: SanitizeOptions,
): { input: StoredQuestionInput; errors?: undefined } | { errors: FieldError[] } {
  if (input.content_format !== "html") return { input: input as StoredQuestionInput };
  const copy = structuredClone(input) as QuestionInput & Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const field of contentFields(copy)) {
    try {
      const { html } = sanitizeHtml(field.value, options);
      if (html.length > MAX_CONTENT_CHARS)
        errors.push({
          path: joinPath(field.path),
          message: `Longer than ${MAX_CONTENT_CHARS} characters once sanitized (${html.length}; TeX becomes MathML, which is longer).`,
        });
      field.replace(html);
    } catch (error) {
      if (error instanceof TexBudgetExceeded) {
        errors.push({ path: joinPath(field.path), message: error.message });
        break;
      }
      if (!(error instanceof NestingTooDeep)) throw error;
      errors.push({
        path: joinPath(field.path),
        message: `${error.message} Flatten it: at most ${MAX_NESTING} levels are stored.`,
      });
    }
  }
  if (errors.length > 0) return { errors };
  const parsed = QuestionInput.safeParse(copy);
  if (!parsed.success)
    return {
      errors: fieldErrors(parsed.error).map((e) => ({ ...e, message: `Once sanitized (docs/content.md): ${e.message}` })),
    };
  return { input: parsed.data as StoredQuestionInput };
}

/** The sanitizer's options for these inputs: KaTeX loaded only when one of them is HTML holding TeX. */
export async function contentOptions(inputs: readonly unknown[], origin?: string): Promise<SanitizeOptions> {
  const needsTex = inputs.some(
    (input) =>
      typeof input === "object" &&
      input !== null &&
      (input as { content_format?: unknown }).content_format === "html" &&
      contentFields(input as Record<string, unknown>).some((field) => mayHoldTex(field.value)),
  );
  return { origin, tex: needsTex ? budgeted(await loadTex()) : undefined };
}

/** The request's questions as stored, or a 400 naming every field refused (at `prefix`, as `questions[2]`). */
export async function storedQuestions(
  inputs: readonly QuestionInput[],
  origin?: string,
  prefix = "",
): Promise<StoredQuestionInput[]> {
  const options = await contentOptions(inputs, origin);
  const errors: FieldError[] = [];
  const stored = inputs.map((input, i) => {
    const result = storeContent(input, options);
    if (result.errors) {
      const at = prefix ? `${prefix}[${i}]` : "";
      errors.push(...result.errors.map((e) => ({ ...e, path: at && e.path ? `${at}.${e.path}` : at || e.path })));
      return input as StoredQuestionInput;
    }
    return result.input;
  });
  if (errors.length > 0) throw validationFailed(errors);
  return stored;
}
