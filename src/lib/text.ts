import { z } from "@hono/zod-openapi";

/**
 * Well-formed text (docs/security.md): the rules every free-text input of the API obeys, as pure
 * predicates (for code that checks text outside a schema, such as short-text answers) and as the
 * zod builders the request schemas use.
 *
 * A string, once trimmed, must be:
 *
 * 1. **Well-formed Unicode**: no lone surrogate (a high surrogate U+D800–U+DBFF not followed by a
 *    low one, or a low surrogate U+DC00–U+DFFF not preceded by a high one). JSON can carry one as
 *    an escape (`"\ud800"`), JSON.parse turns it into a lone UTF-16 unit, and D1 (UTF-8) would
 *    store it as U+FFFD: accepted and silently altered. Refused instead. (Raw bytes that are not
 *    UTF-8 never get this far: the body is decoded with replacement, giving U+FFFD, which is
 *    well-formed; a query string is percent-decoded, and a sequence that does not decode stays
 *    as its literal `%XX` text.)
 * 2. **Free of control characters**: none of the general category Cc, that is C0 (U+0000–U+001F),
 *    DEL (U+007F) and C1 (U+0080–U+009F). The contract names C0; DEL and C1 go too, deliberately:
 *    no text a person types holds them, C1 codes turn up only as mis-decoded Windows-1252 or as
 *    terminal escape sequences (U+009B is a one-character CSI), and a rule that is "all of Cc" is
 *    easier to state and to check. Multi-line text (descriptions, prompts, explanations, feedback)
 *    keeps tab, line feed and carriage return; single-line text (titles, names, option texts,
 *    accepted answers) keeps none of them.
 * 3. **Visible**, when not empty: at least one character a reader can see. Trimming removes
 *    leading and trailing white space (String.prototype.trim: Unicode White_Space and U+FEFF), but
 *    a title of U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER or U+3164 HANGUL FILLER survives
 *    trimming and still shows as nothing. A visible character is a letter, number, punctuation,
 *    symbol or mark (\p{L}, \p{N}, \p{P}, \p{S}, \p{M}) that is not Default_Ignorable_Code_Point
 *    (Unicode's own list of characters that render as nothing when unsupported: every format
 *    character such as U+200B–U+200F, U+2060–U+2064, U+FEFF, soft hyphen and the tag characters;
 *    the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, which are letters (Lo); the variation
 *    selectors and U+034F COMBINING GRAPHEME JOINER, which are marks), nor U+2800 BRAILLE PATTERN
 *    BLANK (a symbol drawn as an empty cell, a well-known stand-in for "blank"). A property escape
 *    keeps the rule current with the runtime's Unicode version instead of a hand-kept list.
 *    Not visible, by this rule: white space, control, format, private-use and unassigned code
 *    points (a private-use glyph depends on a font the reader may not have).
 *    The rule applies to every non-empty string, multi-line included (the contract requires it of
 *    single-line text; a prompt or feedback made only of invisibles is as empty as such a title).
 *    Emptiness itself is the length limit's business: "" passes these rules, and a field that must
 *    not be empty says so with its minimum length.
 *
 * Callers are expected to trim first, as the schemas do: the rules judge the trimmed text.
 */

/** A UTF-16 unit that is half of no pair: with the `u` flag a lone surrogate is a code point of category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;
/** Any control character (Cc: C0, DEL, C1). */
const CONTROL = /\p{Cc}/u;
/** A control character other than tab, line feed and carriage return. */
const CONTROL_EXCEPT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;
/** See rule 3 above. */
const VISIBLE = /(?![\p{Default_Ignorable_Code_Point}\u2800])[\p{L}\p{N}\p{P}\p{S}\p{M}]/u;

type WellFormedString = { isWellFormed(): boolean };
/** String.prototype.isWellFormed (ES2024; present in workerd and Node ≥ 20), else the same test by regex. */
const hasIsWellFormed = typeof (String.prototype as Partial<WellFormedString>).isWellFormed === "function";

/** True when `s` holds no lone surrogate. */
export function isWellFormedUnicode(s: string): boolean {
  return hasIsWellFormed ? (s as unknown as WellFormedString).isWellFormed() : !LONE_SURROGATE.test(s);
}

/** The first control character that `s` may not hold, if any (tab, LF and CR are allowed in multi-line text). */
export function forbiddenControlCharacter(s: string, multiLine: boolean): string | undefined {
  return (multiLine ? CONTROL_EXCEPT_LINE_BREAKS : CONTROL).exec(s)?.[0];
}

/** True when `s` holds at least one visible character (see rule 3 above). */
export function hasVisibleCharacter(s: string): boolean {
  return VISIBLE.test(s);
}

export const TEXT_MESSAGES = {
  lone_surrogate: "must be well-formed Unicode (a lone surrogate was found)",
  control: "must not contain control characters",
  invisible: "must contain a visible character",
} as const;

const codePoint = (c: string) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * Why `s` (already trimmed) is not acceptable text, or undefined when it is. The message starts
 * with one of TEXT_MESSAGES and may add detail (which character, what is allowed).
 * An empty string passes: minimum lengths are the caller's.
 */
export function textProblem(s: string, multiLine: boolean): string | undefined {
  if (!isWellFormedUnicode(s)) return `${TEXT_MESSAGES.lone_surrogate}.`;
  const control = forbiddenControlCharacter(s, multiLine);
  if (control !== undefined) {
    const allowed = multiLine
      ? "only tab, line feed and carriage return are allowed"
      : "this is single-line text: no tabs or line breaks either";
    return `${TEXT_MESSAGES.control} (found ${codePoint(control)}; ${allowed}).`;
  }
  if (s !== "" && !hasVisibleCharacter(s)) {
    return `${TEXT_MESSAGES.invisible} (not only white space, format characters such as U+200B, or fillers such as U+3164).`;
  }
  return undefined;
}

/** True when `s` (already trimmed) obeys all three rules. */
export function isWellFormedText(s: string, multiLine: boolean): boolean {
  return textProblem(s, multiLine) === undefined;
}

const SINGLE_LINE_RULE =
  "Trimmed. Well-formed Unicode (no lone surrogates); no control characters (U+0000–U+001F, U+007F–U+009F), " +
  "so no tabs or line breaks; at least one visible character (not only white space, format characters " +
  "such as U+200B, or fillers such as U+3164).";
const MULTI_LINE_RULE =
  "Trimmed. Well-formed Unicode (no lone surrogates); no control characters (U+0000–U+001F, U+007F–U+009F) " +
  "except tab, line feed and carriage return; when not empty, at least one visible character.";

/** Trimmed, then `min`–`max` long; the OpenAPI document takes its minLength (when > 0) and maxLength from these. */
function bounded(min: number, max: number) {
  const trimmed = z.string().trim();
  return (min > 0 ? trimmed.min(min) : trimmed).max(max);
}

function checked(schema: z.ZodString, multiLine: boolean) {
  return schema.superRefine((s, ctx) => {
    const problem = textProblem(s, multiLine);
    if (problem) ctx.addIssue({ code: "custom", message: problem, input: s });
  });
}

/**
 * A single-line text field: trimmed, `min`–`max` UTF-16 units (the length zod and JSON Schema
 * count), well-formed, no control characters at all, at least one visible character.
 * The rule is documented in the field's OpenAPI description (not as a `pattern`: it needs Unicode
 * property escapes, which JSON Schema patterns do not portably support).
 */
export function singleLineText(max: number, min = 1) {
  return checked(bounded(min, max), false).openapi({ description: SINGLE_LINE_RULE });
}

/**
 * A multi-line text field: trimmed, at most `max` UTF-16 units (and at least `min`, default 0),
 * well-formed, no control characters but tab, LF and CR, visible when not empty.
 */
export function multiLineText(max: number, min = 0) {
  return checked(bounded(min, max), true).openapi({ description: MULTI_LINE_RULE });
}
