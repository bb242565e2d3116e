import type { QuestionType } from "../../domain/question-types";
import {
  ANSWER_COLUMNS,
  answerRecords,
  type ExportFormat,
  type ExportRecord,
  type ExportShape,
  questionColumn,
  SUBMISSION_COLUMNS,
  submissionRecord,
} from "../../domain/results-export";
import type { Database } from "../../env";
import { type CsvCell, csvRecord } from "../../lib/csv";
import { addQuestionTypes, type ExportCursor, type ExportQuiz, exportPage } from "./results-export.service";

export const MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  ndjson: "application/x-ndjson",
};

/** A value as a CSV cell: a string as is, a number as a number, a structured response as JSON text. */
const cellOf = (value: unknown): CsvCell =>
  value === null || value === undefined || typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? (value ?? null)
    : JSON.stringify(value);

function encoder(format: ExportFormat) {
  return format === "csv"
    ? (record: ExportRecord) => csvRecord(Object.values(record).map(cellOf))
    : (record: ExportRecord) => `${JSON.stringify(record)}\n`;
}

export interface ExportOptions {
  format: ExportFormat;
  shape: ExportShape;
  since?: string;
}

/**
 * The export as a stream that reads one page of submissions when its reader asks for more bytes
 * (highWaterMark 0: nothing is read ahead), writes that page as one chunk, and lets the page go
 * before reading the next: the isolate holds at most one page of rows, however many the quiz has.
 * A failure after the first byte can no longer change the status: the stream errors, so the
 * client's read fails instead of ending on a silently short file.
 */
export function exportStream(
  db: Database,
  quiz: ExportQuiz,
  options: ExportOptions,
  onError: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const { format, shape, since } = options;
  const encode = encoder(format);
  const bytes = new TextEncoder();
  const types = new Map<string, QuestionType>();
  let cursor: ExportCursor | undefined;
  let started = false;
  let done = false;

  const header = () => {
    if (format !== "csv") return "";
    const columns =
      shape === "submissions" ? [...SUBMISSION_COLUMNS, ...quiz.columns.map((c) => questionColumn(c.position))] : ANSWER_COLUMNS;
    return csvRecord(columns);
  };

  const nextPage = async (): Promise<string> => {
    const rows = await exportPage(db, quiz, shape, { cursor, since });
    const last = rows.at(-1);
    if (rows.length < quiz.pageRows || !last) done = true;
    if (last) cursor = { createdAt: last.createdAt, id: last.id };
    if (shape === "answers") await addQuestionTypes(db, rows, types);
    let text = "";
    for (const row of rows)
      if (shape === "submissions") text += encode(submissionRecord(row, quiz.columns));
      else for (const record of answerRecords(row, types)) text += encode(record);
    return text;
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!started) {
            started = true;
            const first = header();
            if (first !== "") return controller.enqueue(bytes.encode(first));
          }
          // A pull must give its reader something or end the stream: a page whose rows make no
          // record (submissions presenting no question) is let go and the next one read.
          let text = "";
          while (text === "" && !done) text = await nextPage();
          if (text !== "") controller.enqueue(bytes.encode(text));
          if (done) controller.close();
        } catch (error) {
          onError(error);
          controller.error(error);
        }
      },
    },
    { highWaterMark: 0 },
  );
}
