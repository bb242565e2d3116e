/**
 * Aiken (Moodle's one-line-per-part format) in: a question's text, its options "A. …" or "A) …",
 * then "ANSWER: A". Every question is single choice. A block that does not have that shape is
 * skipped with the line it starts on, and reading goes on with the next block.
 */
import { finish, letterId, skip } from "./check";
import { unreadable } from "./errors";
import type { ImportedItem, ImportResult } from "./types";

const OPTION = /^([A-Z])[.)]\s+(.*)$/;
const ANSWER = /^ANSWER:\s*(.*)$/i;

interface Pending {
  line: number;
  prompt: string[];
  options: { letter: string; text: string }[];
}

export function readAiken(source: string): ImportResult {
  const items: ImportedItem[] = [];
  let block: Pending | undefined;
  const malformed = (b: Pending, why: string) => {
    items.push(skip({ source_id: String(items.length + 1) }, `Skipped (line ${b.line}): ${why}.`, "single_choice"));
  };
  const lines = source.replace(/^\ufeff/, "").split(/\r\n|\r|\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "") continue;
    const answer = ANSWER.exec(line);
    const option = OPTION.exec(line);
    if (answer) {
      if (!block || block.options.length === 0) {
        malformed(block ?? { line: i + 1, prompt: [], options: [] }, "an ANSWER line without options before it");
        block = undefined;
        continue;
      }
      const b = block;
      block = undefined;
      const letter = answer[1]?.trim().toUpperCase() ?? "";
      const index = b.options.findIndex((o) => o.letter === letter);
      if (b.prompt.length === 0 || index < 0) {
        malformed(b, index < 0 ? `the answer "${letter}" is not one of the options` : "options without a question before them");
        continue;
      }
      const source_id = String(items.length + 1);
      items.push(
        finish(
          { source_id },
          {
            type: "single_choice",
            prompt: b.prompt.join("\n"),
            options: b.options.map((o, j) => ({ id: letterId(j), text: o.text })),
            correct_option_id: letterId(index),
          },
          [],
        ),
      );
      continue;
    }
    if (option && block && (block.prompt.length > 0 || block.options.length > 0)) {
      block.options.push({ letter: option[1] ?? "", text: option[2] ?? "" });
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
  if (!/^\s*ANSWER:/im.test(source)) throw unreadable('No Aiken question found: no "ANSWER:" line.');
  return { format: "aiken", items };
}
