import { describe, expect, it } from "vitest";
import {
  forbiddenControlCharacter,
  hasVisibleCharacter,
  isWellFormedText,
  isWellFormedUnicode,
  multiLineText,
  singleLineText,
  TEXT_MESSAGES,
  textProblem,
} from "../../src/lib/text";
import { INVISIBLES, LONE_SURROGATES, ORDINARY } from "../support/text-samples";

describe("the text predicates", () => {
  it("uses String.prototype.isWellFormed, which workerd has", () => {
    expect(typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed).toBe("function");
  });

  it("finds lone surrogates, and only those", () => {
    for (const s of Object.values(LONE_SURROGATES)) {
      expect(isWellFormedUnicode(s), JSON.stringify(s)).toBe(false);
      expect(textProblem(s, false)).toBe(`${TEXT_MESSAGES.lone_surrogate}.`);
      expect(textProblem(s, true)).toBe(`${TEXT_MESSAGES.lone_surrogate}.`);
    }
    for (const s of ["", "a", "😀", "\ud83d\ude00", "\ufffd", "\uffff", "𝕏"])
      expect(isWellFormedUnicode(s), JSON.stringify(s)).toBe(true);
  });

  it("refuses every control character (C0, DEL, C1); multi-line text keeps tab, LF and CR", () => {
    for (const code of [...Array(0x20).keys(), 0x7f, ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i)]) {
      const c = String.fromCharCode(code);
      const lineBreakOrTab = c === "\t" || c === "\n" || c === "\r";
      expect(forbiddenControlCharacter(`a${c}b`, false), code.toString(16)).toBe(c);
      expect(forbiddenControlCharacter(`a${c}b`, true), code.toString(16)).toBe(lineBreakOrTab ? undefined : c);
    }
    // Not control characters: the first printable ones either side of the ranges, and the line separators (Zl, Zp).
    for (const s of [" ", "~", "\u00a0", "\u00a1", "\u2028", "\u2029"])
      expect(forbiddenControlCharacter(`a${s}b`, false)).toBeUndefined();
    expect(textProblem("a\u0007", false)).toBe(
      "must not contain control characters (found U+0007; this is single-line text: no tabs or line breaks either).",
    );
    expect(textProblem("a\u009b", true)).toBe(
      "must not contain control characters (found U+009B; only tab, line feed and carriage return are allowed).",
    );
    expect(textProblem("line 1\r\n\tline 2", true)).toBeUndefined();
    expect(textProblem("line 1\nline 2", false)).toMatch(/^must not contain control characters \(found U\+000A/);
  });

  it("wants a visible character in any non-empty text", () => {
    for (const [name, s] of Object.entries(INVISIBLES)) {
      expect(hasVisibleCharacter(s), name).toBe(false);
      expect(textProblem(s, false), name).toMatch(/^must contain a visible character/);
      expect(textProblem(s, true), name).toMatch(/^must contain a visible character/);
    }
    for (const [name, s] of Object.entries(ORDINARY)) {
      expect(hasVisibleCharacter(s), name).toBe(true);
      expect(textProblem(s, false), name).toBeUndefined();
      expect(isWellFormedText(s, false), name).toBe(true);
    }
    // One visible character is enough; so is a lone combining mark, a digit, punctuation or a symbol.
    for (const s of ["\u200ba\u200b", "\u0301", "0", "?", "€", "\ufffd", "\u3164x"])
      expect(hasVisibleCharacter(s), JSON.stringify(s)).toBe(true);
    // Emptiness is the length limit's business.
    expect(textProblem("", false)).toBeUndefined();
    expect(textProblem("", true)).toBeUndefined();
  });

  it("checks in order: well-formed, then control characters, then visibility", () => {
    expect(textProblem("\u0000\ud800", false)).toMatch(/^must be well-formed Unicode/);
    expect(textProblem("\u200b\u0000", false)).toMatch(/^must not contain control characters/);
    expect(isWellFormedText("\u200b", true)).toBe(false);
  });
});

describe("singleLineText / multiLineText", () => {
  it("trims, then applies the limits and the rules", () => {
    const title = singleLineText(5);
    expect(title.parse("  ab\n")).toBe("ab");
    expect(title.safeParse("  ").error?.issues.map((i) => i.code)).toEqual(["too_small"]);
    expect(title.safeParse("abcdef").error?.issues.map((i) => i.code)).toEqual(["too_big"]);
    expect(title.safeParse("a\nb").error?.issues[0]?.message).toMatch(/^must not contain control characters/);
    expect(title.safeParse("\u2060").error?.issues[0]?.message).toMatch(/^must contain a visible character/);
    expect(singleLineText(5, 0).parse("   ")).toBe("");

    const body = multiLineText(20);
    expect(body.parse("\t a\r\n\tb \n")).toBe("a\r\n\tb");
    expect(body.parse("")).toBe("");
    expect(body.safeParse("a\u0000").error?.issues[0]?.message).toMatch(/^must not contain control characters/);
    expect(body.safeParse("\u200b").error?.issues[0]?.message).toMatch(/^must contain a visible character/);
    expect(
      multiLineText(20, 1)
        .safeParse(" \n ")
        .error?.issues.map((i) => i.code),
    ).toEqual(["too_small"]);
  });
});
