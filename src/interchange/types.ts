/**
 * The values question banks come in as and go out as (docs/import-export.md). No I/O: readers take the
 * file's bytes and return question inputs with a report; writers take a quiz and its questions
 * and return a file.
 */
import type { ImportFormat } from "../domain/jobs";
import type { QuestionType } from "../domain/questions";

export type { ImportFormat };
export type ExportFormat = "qti3" | "qti21" | "gift" | "moodle_xml";

/** A choice option, ordering item, matching prompt or choice; choice options may carry feedback (docs/import-export.md). */
export interface OptionInput {
  id: string;
  text: string;
  feedback?: string;
}

interface CommonInput {
  prompt: string;
  points?: number;
  feedback?: { correct?: string; incorrect?: string };
  explanation?: string;
  title?: string;
  tags?: string[];
}

export type Scoring = "all_or_nothing" | "partial";

/**
 * A question input as `POST /v1/quizzes/{id}/questions` accepts it, with docs/import-export.md's `title`, `tags`
 * and option `feedback`. Readers always give ids, so what is graded is what the report describes.
 */
export type QuestionInput = CommonInput &
  (
    | { type: "single_choice"; options: OptionInput[]; correct_option_id: string }
    | { type: "multiple_choice"; options: OptionInput[]; correct_option_ids: string[]; scoring: Scoring }
    | { type: "true_false"; correct: boolean }
    | { type: "short_text"; accepted_answers: string[]; case_sensitive: boolean }
    | { type: "numeric"; correct_value: number; tolerance: number }
    | { type: "ordering"; items: OptionInput[]; correct_order: string[]; scoring: Scoring }
    | {
        type: "matching";
        prompts: OptionInput[];
        choices: OptionInput[];
        correct_matches: Record<string, string>;
        scoring: Scoring;
      }
    | { type: "fill_in_blanks"; text: string; blanks: BlankInput[]; scoring: Scoring }
    | { type: "essay"; rubric?: string; max_words?: number }
  );

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

export interface ImportResult {
  format: ImportFormat;
  /** The quiz title the file carries (a QTI test's or package's title), if any. */
  title?: string;
  items: ImportedItem[];
}

/** An option as the API returns it, with docs/import-export.md's feedback. */
interface QuizOption {
  id: string;
  text: string;
  feedback?: string | null;
}

interface QuizQuestionBase {
  id: string;
  prompt: string;
  points: number;
  feedback: { correct?: string; incorrect?: string };
  explanation: string | null;
  title?: string | null;
  tags?: string[] | null;
}

/** A question as the API returns it to a `quizzes:write` credential (keys included). */
export type QuizQuestion = QuizQuestionBase &
  (
    | { type: "single_choice"; options: QuizOption[]; correct_option_id: string }
    | { type: "multiple_choice"; options: QuizOption[]; correct_option_ids: string[]; scoring: Scoring }
    | { type: "true_false"; correct: boolean }
    | { type: "short_text"; accepted_answers: string[]; case_sensitive: boolean }
    | { type: "numeric"; correct_value: number; tolerance: number }
    | { type: "ordering"; items: QuizOption[]; correct_order: string[]; scoring: Scoring }
    | {
        type: "matching";
        prompts: QuizOption[];
        choices: QuizOption[];
        correct_matches: Record<string, string>;
        scoring: Scoring;
      }
    | { type: "fill_in_blanks"; text: string; blanks: BlankInput[]; scoring: Scoring }
    | { type: "essay"; rubric?: string | null; max_words?: number | null }
  );

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
