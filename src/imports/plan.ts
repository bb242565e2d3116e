import { MAX_QUESTIONS_PER_QUIZ, QuestionInput } from "../authoring/question.schemas";
import { storeContent } from "../authoring/question-content";
import { type QuestionRow, questionRow } from "../authoring/question-rows";
import { ANSWER_ROW_BUDGET } from "../domain/answers";
import type { SanitizeOptions } from "../domain/content/sanitize";
import type { ImportResult, ReportEntry } from "../interchange";
import type { ImportReportLine } from "../jobs/jobs";
import { fieldErrors } from "../lib/validation";

/**
 * What an import writes, decided item by item in source order: each question the reader made is
 * validated again by the API's own input schema (the readers aim to make only valid questions;
 * this makes sure), then given a place while the quiz has room (200 questions) and its answers
 * keep every submission's row within the budget (docs/security.md, bounded rows). An item that fails any of
 * these is skipped with the reason; the others become rows, positions after the quiz's last.
 */

/** The quiz written to, as read: the new quiz is empty. */
export interface TargetQuiz {
  id: string;
  questionCount: number;
  /** The answer bytes of its questions (domain/answers answerRowBytes). */
  answerBytes: number;
}

export interface ImportPlan {
  rows: QuestionRow[];
  report: ImportReportLine[];
}

const skipped = (entry: ReportEntry, reason: string): ImportReportLine => {
  const { question_id: _id, ...rest } = entry as ReportEntry & { question_id?: string };
  return { ...rest, status: "skipped", notes: [reason] };
};

/** Why the API's schema refuses an input, in one line. */
const refusal = (error: Parameters<typeof fieldErrors>[0]) =>
  fieldErrors(error)
    .slice(0, 3)
    .map((e) => (e.path ? `${e.path}: ${e.message}` : e.message).replace(/\.$/, ""))
    .join("; ");

export function planImport(result: ImportResult, quiz: TargetQuiz, now: string, content: SanitizeOptions = {}): ImportPlan {
  let room = MAX_QUESTIONS_PER_QUIZ - quiz.questionCount;
  let bytes = quiz.answerBytes;
  const rows: QuestionRow[] = [];
  const report: ImportReportLine[] = [];
  for (const item of result.items) {
    const { entry } = item;
    if (!item.question) {
      report.push({ ...entry });
      continue;
    }
    const parsed = QuestionInput.safeParse(item.question);
    if (!parsed.success) {
      report.push(skipped(entry, `Skipped: the API refuses the question it would become (${refusal(parsed.error)}).`));
      continue;
    }
    const stored = storeContent(parsed.data, content);
    if (stored.errors) {
      const why = stored.errors
        .slice(0, 3)
        .map((e) => (e.path ? `${e.path}: ${e.message}` : e.message).replace(/\.$/, ""))
        .join("; ");
      report.push(skipped(entry, `Skipped: the API refuses the question it would become (${why}).`));
      continue;
    }
    if (room <= 0) {
      report.push(skipped(entry, `Skipped: over ${MAX_QUESTIONS_PER_QUIZ} questions in the quiz.`));
      continue;
    }
    const row = questionRow(quiz.id, stored.input, quiz.questionCount + rows.length + 1, now);
    if (bytes + row.answerBytes > ANSWER_ROW_BUDGET) {
      report.push(
        skipped(
          entry,
          `Skipped: answers to it could make a submission's row larger than the quiz allows (${ANSWER_ROW_BUDGET} bytes for all its questions' answers).`,
        ),
      );
      continue;
    }
    room--;
    bytes += row.answerBytes;
    rows.push(row);
    report.push({ ...entry, question_id: row.id });
  }
  return { rows, report };
}
