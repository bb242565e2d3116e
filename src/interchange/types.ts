/**
 * The values question banks come in as and go out as (docs/import-export.md). No I/O: readers take the
 * file's bytes and return question inputs with a report; writers take a quiz and its questions
 * and return a file.
 */
import type { z } from "@hono/zod-openapi";
import type { GradableQuestion, QuestionInput as QuestionInputSchema, QuestionType } from "../domain/question-types";
import type { ImportedImage } from "./images";

/**
 * A question input as the API's schema takes it (domain/question-types: `QuestionInput`, the body
 * of `POST /v1/quizzes/{id}/questions` without its position), with docs/import-export.md's `title`,
 * `tags` and option `feedback`. Readers always give ids, so what is graded is what the report describes.
 */
export type QuestionInput = z.input<typeof QuestionInputSchema>;

/** A choice option, ordering item, matching prompt or choice, as a reader makes it: with its id. */
export interface OptionInput {
  id: string;
  text: string;
  feedback?: string;
}

export interface BlankInput {
  id: string;
  accepted_answers: string[];
  case_sensitive: boolean;
}

type ReportStatus = "imported" | "approximated" | "skipped";

/** One source item's line in an import's report (docs/import-export.md), before the question is written. */
export interface ReportEntry {
  source_id: string;
  title?: string;
  status: ReportStatus;
  type?: QuestionType;
  notes: string[];
}

/** A source item: its report entry, and the question to create unless it was skipped. */
export interface ImportedItem {
  entry: ReportEntry;
  question?: QuestionInput;
}

/** A read upload; `Format` the name of the format that read it (formats/index.ts lists them). */
export interface ImportResult<Format extends string = string> {
  format: Format;
  /** The quiz title the file carries (a QTI test's or package's title), if any. */
  title?: string;
  items: ImportedItem[];
  /** The images the items' texts name by asset path (images.ts), to be stored as assets before they are written. */
  images?: ImportedImage[];
}

/** A question as the API returns it to a `quizzes:write` credential (keys included), as the writers read it. */
export type QuizQuestion = GradableQuestion & {
  prompt: string;
  /** "html": the texts are stored HTML fragments (CONTRACT §19); absent or "text": plain text. */
  content_format?: "text" | "html";
  explanation: string | null;
  title?: string | null;
  tags?: string[] | null;
};

export interface QuizForExport {
  title: string;
  description?: string;
}

/** An exported file; `skipped` names the questions the format cannot express (for `Export-Skipped`). */
export interface ExportFile {
  body: Uint8Array | string;
  contentType: string;
  extension: string;
  skipped: string[];
}
