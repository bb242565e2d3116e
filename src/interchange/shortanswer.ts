/**
 * Moodle's short-answer patterns (qtype_shortanswer, which GIFT's `{=…}` and Cloze's SHORTANSWER
 * gaps import into): an unescaped "*" matches any text, "\*" is a star. Every other backslash is
 * itself. The service compares answers literally, so a star is written escaped, and a source's
 * wildcard is read as a star with a note.
 */

/** `answer` as a Moodle pattern that matches exactly it. */
export const shortAnswerPattern = (answer: string) => answer.replaceAll("*", "\\*");

/** A Moodle pattern's text ("\*" a star) and whether it has a wildcard (a "*" after no backslash, Moodle's own split). */
export const readShortAnswer = (pattern: string) => ({
  text: pattern.replaceAll("\\*", "*"),
  wildcard: /(?<!\\)\*/.test(pattern),
});

export const WILDCARD_NOTE = 'The wildcard "*" in an answer is matched literally here.';
