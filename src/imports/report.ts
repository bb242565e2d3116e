import type { ImportFormat } from "../interchange";
import type { ImportJobResult, ImportReportLine } from "../jobs/jobs";

/**
 * A finished import's result, kept in its job's row: one report line per source item. Rows stay
 * under D1's size limit by construction (docs/security.md, bounded rows): an import reads at most 1 000 items (the
 * readers refuse more, `BUDGET.items` in src/interchange/budget.ts), and the
 * report is shortened until its JSON fits REPORT_MAX_BYTES — first long notes are cut, then
 * titles and all but each item's first note go, at last every note (a line then says how many
 * there were). Counts are never shortened.
 */

/** The most a report may take in the job's row, as UTF-8 JSON. */
const REPORT_MAX_BYTES = 800_000;
/** A source id longer than this is cut (a QTI identifier has no length limit). */
const SOURCE_ID_MAX = 100;

/** At most `max` UTF-16 units, control characters as spaces: so no unit takes more than 3 bytes of JSON. */
const cut = (text: string, max: number) => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced.
  const plain = text.replace(/[\u0000-\u001f\u007f]/g, " ");
  return plain.length <= max ? plain : `${plain.slice(0, max - 1)}…`;
};

/** The ways of shortening, gentlest first: [longest note, notes kept, titles kept]. */
const LEVELS: [number, number, boolean][] = [
  [1000, 20, true],
  [200, 5, true],
  [80, 1, false],
  [0, 0, false],
];

function shorten(line: ImportReportLine, [noteMax, notesKept, titles]: [number, number, boolean]): ImportReportLine {
  const { title, ...rest } = line;
  const notes = line.notes.slice(0, notesKept).map((n) => cut(n, noteMax));
  if (line.notes.length > notesKept) notes.push(`… and ${line.notes.length - notesKept} more.`);
  return {
    ...rest,
    source_id: cut(line.source_id, SOURCE_ID_MAX),
    ...(titles && title !== undefined ? { title } : {}),
    notes,
  };
}

const utf8Length = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

export function importResult(format: ImportFormat, quizId: string | null, lines: ImportReportLine[]): ImportJobResult {
  const count = (status: ImportReportLine["status"]) => lines.filter((l) => l.status === status).length;
  const head = {
    quiz_id: quizId,
    format,
    items_total: lines.length,
    imported: count("imported"),
    approximated: count("approximated"),
    skipped: count("skipped"),
  };
  let report = lines;
  for (const level of LEVELS) {
    report = lines.map((line) => shorten(line, level));
    if (utf8Length(report) <= REPORT_MAX_BYTES) break;
  }
  return { ...head, report };
}
