/**
 * Aiken (Moodle's one-line-per-part format) in: a question's text, its options "A. …" or "A) …",
 * then "ANSWER: A". Every question is single choice. As in Moodle's reader, an option's letter and
 * mark may be followed by a space or a tab or by the text itself ("A)Paris"). A block that does
 * not make a question is skipped with the line it starts on, and reading goes on with the next
 * block. Lines are told apart by their first characters, never by a pattern over the whole text,
 * so reading is linear in the file.
 */
import { BUDGET, tooManyItems } from "../../budget";
import { finish, letterId, skip } from "../../check";
import { unreadable } from "../../errors";
import type { ImportedItem, ImportResult } from "../../types";

/** An option line: a capital letter, "." or ")", then an optional space or tab (Moodle's `/^[A-Z][).][ \t]?/`). */
function option(line: string): { letter: string; text: string } | undefined {
  const c = line.charCodeAt(0);
  if (c < 0x41 || c > 0x5a || (line[1] !== "." && line[1] !== ")")) return undefined;
  return { letter: line[0] as string, text: line.slice(2).trim() };
}

/** The rest of an `ANSWER:` line (any case), if it is one. */
const answerOf = (line: string) => (line.slice(0, 7).toUpperCase() === "ANSWER:" ? line.slice(7).trim() : undefined);

interface Pending {
  line: number;
  prompt: string[];
  options: { letter: string; text: string }[];
}

export function readAiken(source: string): ImportResult<"aiken"> {
  const items: ImportedItem[] = [];
  let answered = false;
  let block: Pending | undefined;
  const add = (item: ImportedItem) => {
    if (items.length >= BUDGET.items) throw tooManyItems(`more than ${BUDGET.items}`);
    items.push(item);
  };
  const malformed = (b: Pending, why: string) => {
    add(skip({ source_id: String(items.length + 1) }, `Skipped (line ${b.line}): ${why}.`, "single_choice"));
  };
  const lines = source.replace(/^\ufeff/, "").split(/\r\n|\r|\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "") continue;
    const answer = answerOf(line);
    if (answer !== undefined) {
      answered = true;
      if (!block || block.options.length === 0) {
        malformed(block ?? { line: i + 1, prompt: [], options: [] }, "an ANSWER line without options before it");
        block = undefined;
        continue;
      }
      const b = block;
      block = undefined;
      const letter = answer.toUpperCase();
      const index = b.options.findIndex((o) => o.letter === letter);
      if (b.prompt.length === 0 || index < 0) {
        malformed(b, index < 0 ? `the answer "${letter}" is not one of the options` : "options without a question before them");
        continue;
      }
      const item = finish(
        { source_id: String(items.length + 1) },
        {
          type: "single_choice",
          prompt: b.prompt.join("\n"),
          options: b.options.map((o, j) => ({ id: letterId(j), text: o.text })),
          correct_option_id: letterId(index),
        },
        [],
      );
      // A block the API refuses is skipped with its line, like every other skipped block.
      if (!item.question) item.entry.notes = item.entry.notes.map((n) => n.replace(/^Skipped:/, `Skipped (line ${b.line}):`));
      add(item);
      continue;
    }
    const choice = option(line);
    if (choice && block && (block.prompt.length > 0 || block.options.length > 0)) {
      block.options.push(choice);
      continue;
    }
    if (block && block.options.length > 0) {
      malformed(block, "no ANSWER line after its options");
      block = undefined;
    }
    block ??= { line: i + 1, prompt: [], options: [] };
    block.prompt.push(line);
  }
  if (block) malformed(block, block.options.length > 0 ? "no ANSWER line after its options" : "a question without options");
  if (!answered) throw unreadable('No Aiken question found: no "ANSWER:" line.');
  return { format: "aiken", items };
}
