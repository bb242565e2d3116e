// The shell snippets of the README and the docs (```sh blocks), for the tests that check they run
// as pasted after the README's walk-through: test/tools/readme-snippets.spec.ts (every variable a
// snippet uses is set by an earlier one) and test/e2e/readme.test.ts (they run against npm run dev).
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface Snippet {
  /** Where it is: "README.md:57". */
  where: string;
  /** The `## ` heading it is under. */
  section: string;
  code: string;
}

const ROOT = join(import.meta.dirname, "../..");

export function shSnippets(file: string): Snippet[] {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const snippets: Snippet[] = [];
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith("## ")) section = line.slice(3).trim();
    if (line.trim() !== "```sh") continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]?.trim() !== "```") end++;
    snippets.push({ where: `${file}:${start + 1}`, section, code: lines.slice(start, end).join("\n") });
    i = end;
  }
  return snippets;
}

/** The README's snippets from its walk-through on, as a reader pastes them after it: not the deployment's. */
export function readmeSnippetsFromWalkthrough(): Snippet[] {
  const all = shSnippets("README.md");
  const first = all.findIndex((s) => s.section === "Walk-through");
  return all.slice(first).filter((s) => s.section !== "Deploying");
}

/** A line without its shell comment (a # at the start of a word, outside quotes). */
function uncommented(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1] as string))) return line.slice(0, i);
  }
  return line;
}

/**
 * The variables (upper case, as the snippets name theirs) each line of a snippet uses and sets,
 * in order: a line's uses come before its assignments (`QUIZ=$(jq … <<<"$CREATED")`); a use with a
 * default (`${PORT:-8787}`) is not counted.
 */
export function variables(code: string): { line: number; uses: string[]; sets: string[] }[] {
  return code.split("\n").map((raw, line) => {
    const text = uncommented(raw);
    // ${NAME:-default} needs no NAME set.
    const uses = [...text.matchAll(/\$(?:\{([A-Z_][A-Z0-9_]*)(:?-)?|([A-Z_][A-Z0-9_]*))/g)]
      .filter((m) => m[2] === undefined)
      .map((m) => (m[1] ?? m[3]) as string);
    const sets = [...text.matchAll(/(?:^|[\s;&|(])(?:export\s+)?([A-Z_][A-Z0-9_]*)=/g)].map((m) => m[1] as string);
    return { line, uses, sets };
  });
}
