/**
 * Quizzes out (§13): QTI 3.0 and 2.1 content packages, GIFT and Moodle XML. A question the
 * format cannot express is left out, named in `skipped` (for the `Export-Skipped` header) and in
 * a comment at the top of the file.
 */
import { writeGift } from "./gift-write";
import { writeMoodleXml } from "./moodle-write";
import { writeQtiPackage } from "./qti-write";
import type { ExportFile, ExportFormat, QuizForExport, QuizQuestion } from "./types";

export function exportQuiz(format: ExportFormat, quiz: QuizForExport, questions: QuizQuestion[]): ExportFile {
  switch (format) {
    case "qti3":
      return writeQtiPackage("3.0", quiz, questions);
    case "qti21":
      return writeQtiPackage("2.1", quiz, questions);
    case "gift":
      return writeGift(quiz, questions);
    case "moodle_xml":
      return writeMoodleXml(quiz, questions);
  }
}

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

/** Whether every right part (option, prompt, blank) must be right for any credit, with more than one part. */
export const allOrNothingOfMany = (q: QuizQuestion) =>
  (q.type === "multiple_choice" && q.scoring === "all_or_nothing" && q.correct_option_ids.length > 1) ||
  (q.type === "matching" && q.scoring === "all_or_nothing" && q.prompts.length > 1) ||
  (q.type === "fill_in_blanks" && q.scoring === "all_or_nothing" && q.blanks.length > 1);
