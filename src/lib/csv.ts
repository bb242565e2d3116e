/**
 * CSV records per RFC 4180: fields separated by commas, records ended by CRLF, a field holding a
 * comma, a double quote, CR or LF enclosed in double quotes with its quotes doubled.
 *
 * Written here rather than taken from csv-stringify: its streaming form is Node's
 * stream.Transform (not on Workers without nodejs_compat), and what the export needs of it is
 * these few lines. test/routes/quizzes/results-export.test.ts reads every output back with
 * csv-parse, property-tested.
 */

/** A cell: text, a number (written as a number), a boolean (true/false), or empty (null). */
export type CsvCell = string | number | boolean | null;

/**
 * Text a spreadsheet would read as a formula (OWASP's CSV injection): a leading =, +, -, @, tab or
 * CR. Such a text cell gets a leading ' so that it shows as the text it is. Numbers are never
 * prefixed: -3 is a number, not a formula.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

const CSV_RECORD_END = "\r\n";

function field(cell: CsvCell): string {
  if (cell === null) return "";
  if (typeof cell === "number") return Number.isFinite(cell) ? String(cell) : "";
  if (typeof cell === "boolean") return cell ? "true" : "false";
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF included. */
export function csvRecord(cells: readonly CsvCell[]): string {
  return cells.map(field).join(",") + CSV_RECORD_END;
}
