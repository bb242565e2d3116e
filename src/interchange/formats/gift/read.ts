/**
 * GIFT (Moodle's documented text format) in. A small parser of our own, following the
 * documentation and Moodle's reference importer (qformat_gift) rather than gift-pegjs 1.0.2:
 * that grammar refuses unescaped "=" and ":" in question text (Moodle's own documented example
 * `::Q1:: 1+1=2 {T}` fails), keeps "//" comment lines inside answers as answer text, and parses
 * a whole file or nothing, where an import wants each malformed question skipped on its own.
 *
 * Questions are blocks of lines separated by blank lines; lines starting with "//" are comments
 * (`// [tag:x]` gives a tag, as in Moodle); `$CATEGORY:` sets the tag of the questions after it.
 * Every scan is a single pass over the text (indexOf and loops, no pattern that backtracks).
 */
import { categoryTag } from "../../category";
import { skip } from "../../check";
import { unreadable } from "../../errors";
import type { ImportedItem, ImportResult } from "../../types";
import { giftQuestion, protect, unescapeGift } from "./question";

interface Block {
  line: number;
  text: string;
  tags: string[];
}

/** Moodle trims lines with PHP's trim: ASCII white space only (a no-break space is text). */
const SPACE = new Set([" ", "\t", "\n", "\r", "\0", "\x0b"]);
function trimLine(line: string): string {
  let [from, to] = [0, line.length];
  while (from < to && SPACE.has(line[from] ?? "")) from++;
  while (to > from && SPACE.has(line[to - 1] ?? "")) to--;
  return line.slice(from, to);
}

/**
 * The `[tag:…]`s of a comment line, as Moodle reads them: "\]" is a "]" inside a tag, and a tag
 * left open at the end of the line ends at its last "\]" (that backslash then being its own).
 * One pass: a scan that finds no "]" to end a tag has seen the rest of the line.
 */
function commentTags(line: string): string[] {
  const tags: string[] = [];
  const tagText = (from: number, to: number) => line.slice(from, to).replaceAll("\\]", "]");
  let from = 0;
  for (;;) {
    const start = line.indexOf("[tag:", from);
    if (start < 0) return tags;
    let lastEscape = -1;
    let i = line.indexOf("]", start + 5);
    while (i >= 0 && line[i - 1] === "\\") {
      lastEscape = i - 1;
      i = line.indexOf("]", i + 1);
    }
    if (i >= 0) {
      tags.push(tagText(start + 5, i).trim());
      from = i + 1;
    } else if (lastEscape >= 0) {
      tags.push(`${tagText(start + 5, lastEscape)}\\`.trim());
      from = lastEscape + 2;
    } else return tags;
  }
}

/** Blocks of non-blank lines, comment lines removed (their `[tag:…]`s kept); lines trimmed as Moodle trims them. */
function blocks(source: string): Block[] {
  const out: Block[] = [];
  let current: { line: number; lines: string[]; tags: string[] } | undefined;
  const close = () => {
    if (current && current.lines.length > 0) out.push({ line: current.line, text: current.lines.join("\n"), tags: current.tags });
    current = undefined;
  };
  source.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = trimLine(raw);
    if (line === "") {
      close();
      return;
    }
    current ??= { line: i + 1, lines: [], tags: [] };
    if (line.startsWith("//")) {
      current.tags.push(...commentTags(line));
      return;
    }
    if (current.lines.length === 0) current.line = i + 1;
    current.lines.push(line);
  });
  close();
  return out;
}

export function readGift(source: string, origin?: string): ImportResult<"gift"> {
  const items: ImportedItem[] = [];
  let category: string | undefined;
  let position = 0;
  let answered = false;
  // A file of descriptions only is still GIFT when it has GIFT's marks: its items are skipped, not refused.
  let marked = false;
  for (const block of blocks(source.replace(/^\ufeff/, ""))) {
    const text = protect(block.text);
    if (/^\$CATEGORY:/.test(text)) {
      category = categoryTag(unescapeGift(text.slice("$CATEGORY:".length).trim()));
      marked = true;
      continue;
    }
    position++;
    if (/^(::|\[(html|markdown|plain|moodle)\])/.test(text)) marked = true;
    let rest = text;
    let title: string | undefined;
    if (rest.startsWith("::")) {
      const end = rest.indexOf("::", 2);
      if (end >= 0) {
        title = unescapeGift(rest.slice(2, end)).trim() || undefined;
        rest = rest.slice(end + 2).trim();
      }
    }
    const source_id = title ?? String(position);
    const tags = [...(category ? [category] : []), ...block.tags];
    const start = rest.indexOf("{");
    const end = start >= 0 ? rest.indexOf("}", start) : rest.indexOf("}");
    if (start < 0 && end < 0) {
      items.push(skip({ source_id, title }, `Skipped (line ${block.line}): a description without an answer.`));
      continue;
    }
    if (start < 0 || end < 0) {
      items.push(skip({ source_id, title }, `Skipped (line ${block.line}): malformed, a "{" or "}" is missing.`));
      continue;
    }
    answered = true;
    const before = rest.slice(0, start);
    const after = rest.slice(end + 1);
    items.push(
      giftQuestion({
        source_id,
        title,
        tags,
        line: block.line,
        before,
        after,
        answers: rest.slice(start + 1, end).trim(),
        origin,
      }),
    );
  }
  if (!answered && !marked) throw unreadable("No GIFT question found: no answers in braces { }, no ::title:: or $CATEGORY:.");
  return { format: "gift", items };
}
