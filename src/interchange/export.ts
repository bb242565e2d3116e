/**
 * Quizzes out (§13): QTI 3.0 and 2.1 content packages, GIFT and Moodle XML. A question the
 * format cannot express is left out, named in `skipped` (for the `Export-Skipped` header) and in
 * a comment at the top of the file.
 */
import { type ExportFormat, writerOf } from "./formats";
import type { ExportContext } from "./rich";
import type { ExportFile, QuizForExport, QuizQuestion } from "./types";

/** The quiz and its questions (keys included) as a file of `format`, by that format's writer (formats/). */
export const exportQuiz = (
  format: ExportFormat,
  quiz: QuizForExport,
  questions: QuizQuestion[],
  context: ExportContext = {},
): ExportFile => writerOf(format)(quiz, questions, context);

/** A file name for a quiz title: lower-case ASCII letters, digits and dashes, at most 80, "quiz" when none is left. */
export function fileSlug(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 80)
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "quiz" : slug;
}
