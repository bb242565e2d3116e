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
 * Text a spreadsheet would read as a formula (OWASP's CSV injection): one that starts with a tab,
 * CR or LF, or whose first character past any leading whitespace or invisible characters (spaces,
 * NBSP, U+2028, U+200B, U+FEFF, bidi marks, … — spreadsheets trim some of them, and a reader never
 * sees them) is =, +, - or @, or a compatibility form of one (fullwidth ＝ ＋ － ＠, small ﹦ ﹢ ﹣ ﹫,
 * which a spreadsheet may fold to the ASCII sign). Such a text cell gets a leading ' so that it
 * shows as the text it is. Numbers are never prefixed: -3 is a number, not a formula.
 */
const BREAK_OR_TAB_FIRST = /^[\t\r\n]/;
const UNSEEN = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cf}]$/u;
const FORMULA_SIGNS = new Set(["=", "+", "-", "@"]);

function formulaLike(text: string): boolean {
  if (BREAK_OR_TAB_FIRST.test(text)) return true;
  // One pass over the leading unseen characters, then one look at the first seen one.
  for (const char of text) {
    if (UNSEEN.test(char)) continue;
    return FORMULA_SIGNS.has(char.normalize("NFKC"));
  }
  return false;
}

const NEEDS_QUOTES = /[",\r\n]/;

const CSV_RECORD_END = "\r\n";

function field(cell: CsvCell): string {
  if (cell === null) return "";
  if (typeof cell === "number") return Number.isFinite(cell) ? String(cell) : "";
  if (typeof cell === "boolean") return cell ? "true" : "false";
  const text = formulaLike(cell) ? `'${cell}` : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF included. */
export function csvRecord(cells: readonly CsvCell[]): string {
  return cells.map(field).join(",") + CSV_RECORD_END;
}
