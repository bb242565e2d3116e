import type { ExportFile, ExportFormat, ImportResult, QuizQuestion } from "../../src/interchange";
import { exportQuiz, readQuestionBank } from "../../src/interchange";

/** A question as the API returns it, the fields every type has filled in with their defaults. */
export function stored<T extends { type: QuizQuestion["type"]; prompt: string }>(fields: T): QuizQuestion {
  return { id: "qst_1", points: 1, feedback: {}, explanation: null, ...fields } as QuizQuestion;
}

const IMPORT_FORMAT = { gift: "gift", moodle_xml: "moodle_xml", qti3: "qti", qti21: "qti" } as const;

/** `questions` exported in `format`, the file, and what reading that file gives (no items when all were left out). */
export function reimport(format: ExportFormat, questions: QuizQuestion[]): { file: ExportFile; result: ImportResult } {
  const file = exportQuiz(format, { title: "Again" }, questions);
  const body = typeof file.body === "string" ? new TextEncoder().encode(file.body) : file.body;
  if (file.skipped.length === questions.length) return { file, result: { format: IMPORT_FORMAT[format], items: [] } };
  return { file, result: readQuestionBank(body, { format: IMPORT_FORMAT[format] }) };
}
