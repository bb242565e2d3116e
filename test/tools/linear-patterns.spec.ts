import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The shapes of regular expression that made readers quadratic (docs/security.md, "Parsing has a
 * budget"), kept out of src/: a lazy scan over anything (`[\s\S]*?`), which rescans the rest of
 * the text from every opening that never closes; the `m` flag with `^\s*` or `\s*$`, whose white
 * space runs across the line breaks from every line's start; and a quantified group that is
 * itself quantified (`(a+)+`). The doubling tests (test/interchange/linear-time.test.ts) are the
 * proof for the inputs named there; this keeps the shapes from coming back elsewhere.
 */

const ROOT = join(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** Regular expression literals: after a token that cannot end an operand, a slash to a slash and its flags. */
const LITERAL = /(?<=[(=,:!&|?;{}[]\s*|return\s+)\/((?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n[])+)\/([dgimsuyv]*)/g;

const SHAPES: [string, (body: string, flags: string) => boolean][] = [
  ["a lazy scan over anything", (body) => /\[\\s\\S\][*+]\?|\[\\S\\s\][*+]\?/.test(body)],
  ["white space across lines with the m flag", (body, flags) => flags.includes("m") && /\^\\s[*+]|\\s[*+]\$/.test(body)],
  ["a quantified group quantified again", (body) => /\((?:\?:)?[^()]*[*+]\)[*+{]/.test(body)],
];

describe("no backtracking shapes in src/", () => {
  const found: string[] = [];
  for (const file of sources(join(ROOT, "src"))) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(LITERAL)) {
      const [literal, body = "", flags = ""] = match;
      for (const [shape, test] of SHAPES) if (test(body, flags)) found.push(`${relative(ROOT, file)}: ${literal} (${shape})`);
    }
  }

  it("finds none", () => {
    expect(found).toEqual([]);
  });

  it("would find each shape", () => {
    const probe = (source: string) =>
      [...source.matchAll(LITERAL)].flatMap(([, body = "", flags = ""]) =>
        SHAPES.filter(([, t]) => t(body, flags)).map(([s]) => s),
      );
    expect(probe('x.replace(/<!--[\\s\\S]*?-->/g, "")')).toEqual(["a lazy scan over anything"]);
    expect(probe("const a = /^\\s*ANSWER:/im;")).toEqual(["white space across lines with the m flag"]);
    expect(probe("const b = /^(a+)+$/;")).toEqual(["a quantified group quantified again"]);
    expect(probe("const c = /^ANSWER:\\s*[A-Za-z]$/;")).toEqual([]);
  });
});
