import fc from "fast-check";
import type { QuizQuestion } from "../../src/interchange";

/** The texts a question is made of: one arbitrary per kind of field. */
interface TextKit {
  /** Single-line text: a title, an option, an accepted answer, a matching prompt or choice. */
  line: fc.Arbitrary<string>;
  /** Multi-line text: an explanation, a feedback, a rubric, a piece of a fill-in text. */
  lines: fc.Arbitrary<string>;
  prompt: fc.Arbitrary<string>;
  tag: fc.Arbitrary<string>;
  /** Texts unique in their list. */
  texts: (min: number, max: number) => fc.Arbitrary<string[]>;
  /** Question-level right/wrong feedback. */
  feedback: fc.Arbitrary<{ correct?: string; incorrect?: string }>;
}

/** Words with the characters each format must escape (GIFT's ~=#:, XML's <&"'), never "true"/"false" alone. */
const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9#~=:&<'"]{0,7}$/);
const phrase = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(" "));

const PLAIN: TextKit = {
  line: phrase,
  lines: phrase,
  prompt: fc.tuple(phrase, fc.option(phrase, { nil: undefined })).map(([a, b]) => (b ? `${a}\n${b}` : a)),
  tag: word.map((w) => w.replace(/[^A-Za-z0-9]/g, "") || "tag"),
  // A phrase and its position.
  texts: (min, max) => fc.array(phrase, { minLength: min, maxLength: max }).map((list) => list.map((t, i) => `${t} ${i + 1}`)),
  feedback: fc.constant({}),
};

/**
 * Every character and sequence a format reads as syntax (GIFT: ~ = # { } : \ and its escapes,
 * %weights% at the start of an answer, -> in matching, a leading [format], // comments,
 * $CATEGORY:, [tag:…]; Moodle: Cloze's {1:SHORTANSWER:…} and {#1}, the short answer's *, entities;
 * XML's < & " '), in every place of a text: at its start, its end and between words.
 */
const META = [
  "~",
  "=",
  "#",
  "{",
  "}",
  ":",
  "::",
  "%",
  "%100%",
  "%50%",
  "%-50%",
  "->",
  "-",
  ">",
  "[",
  "]",
  "[html]",
  "[markdown]",
  "[plain]",
  "[tag:x]",
  "\\",
  "\\n",
  "\\:",
  "\\]",
  "*",
  "//",
  "$CATEGORY:",
  "####",
  "{1:SHORTANSWER:=x}",
  "{#1}",
  "{:SA:=y~z}",
  "&",
  "&amp;",
  "&#35;",
  "<b>",
  "'",
  '"',
  "T",
  "TRUE",
  "\ue001",
  "\ue00f",
  "\ue010",
];
/** What turned a question's text into syntax before it was escaped: drawn more often. */
const SYNTAX = ["->", "%100%", "%50%", "[html]", "//", "$CATEGORY:", "{1:SHORTANSWER:=x}", "{#1}", "*", "\\", "[tag:x]"];
const metaWord = fc.oneof(
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{1,6}$/) },
  { weight: 2, arbitrary: fc.constantFrom(...META) },
  { weight: 2, arbitrary: fc.constantFrom(...SYNTAX) },
);
/** Words and metacharacters run together or apart, by the separators given; trimmed, as the API stores text. */
const metaText = (separators: string[]) =>
  fc
    .array(fc.tuple(metaWord, fc.constantFrom(...separators)), { minLength: 1, maxLength: 6 })
    .map((parts) =>
      parts
        .map(([w, s]) => w + s)
        .join("")
        .trim(),
    )
    .map((t) => (/[\p{L}\p{N}\p{P}\p{S}]/u.test(t) ? t : `x${t}`));
const metaLine = metaText(["", " ", "\u00a0", "  "]);
/** Multi-line texts break lines every way: LF, CR, CRLF, and hold tabs. */
const metaLines = metaText(["", " ", "\u00a0", "\n", "\r", "\r\n", "\t", "\n\n"]);

const META_KIT: TextKit = {
  line: metaLine,
  lines: metaLines,
  prompt: metaLines,
  tag: metaLine.map((t) => t.slice(0, 100).trim() || "tag"),
  texts: (min, max) => fc.uniqueArray(metaLine, { minLength: min, maxLength: max }),
  feedback: fc.record({ correct: fc.option(metaLines, { nil: undefined }), incorrect: fc.option(metaLines, { nil: undefined }) }),
};

/** Ids as the API makes them: a, b, … or 8 random [a-z0-9] (which may start with a digit). */
const ids = (n: number) =>
  fc.oneof(
    fc.constant(Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i))),
    fc.uniqueArray(fc.stringMatching(/^[a-z0-9]{8}$/), { minLength: n, maxLength: n }),
  );
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const scoring = fc.constantFrom("all_or_nothing" as const, "partial" as const);
const numberArb = fc.integer({ min: -100_000, max: 100_000 }).map((n) => n / 100);

/** Questions of all nine types made of `kit`'s texts. */
function questions(kit: TextKit): fc.Arbitrary<QuizQuestion> {
  const common = fc.record({
    id: fc.stringMatching(/^qst_[0-9a-z]{26}$/),
    prompt: kit.prompt,
    points: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.constantFrom(0.5, 2.5, 1.25)),
    feedback: kit.feedback,
    explanation: fc.option(kit.lines, { nil: null }),
    title: optional(kit.line),
    tags: optional(fc.uniqueArray(kit.tag, { maxLength: 3 })),
  });

  const listed = (n: [number, number]) =>
    kit.texts(n[0], n[1]).chain((t) => ids(t.length).map((i) => t.map((text, k) => ({ id: i[k] ?? `x${k}`, text }))));

  const choiceArb = fc
    .tuple(common, listed([2, 6]), fc.array(optional(kit.lines), { minLength: 6, maxLength: 6 }), scoring, fc.boolean())
    .chain(([c, options, feedback, s, single]) => {
      const withFeedback = options.map((o, i) => (feedback[i] ? { ...o, feedback: feedback[i] } : o));
      return single
        ? fc
            .constantFrom(...options.map((o) => o.id))
            .map((id): QuizQuestion => ({ ...c, type: "single_choice", options: withFeedback, correct_option_id: id }))
        : fc
            .subarray(
              options.map((o) => o.id),
              { minLength: 1 },
            )
            .map(
              (right): QuizQuestion => ({
                ...c,
                type: "multiple_choice",
                options: withFeedback,
                correct_option_ids: right,
                scoring: s,
              }),
            );
    });

  // A fill-in text's own "{{…}}" would be a marker of a blank.
  const piece = kit.lines.filter((t) => !t.includes("{{") && !t.includes("}}"));

  const others: fc.Arbitrary<QuizQuestion>[] = [
    fc.tuple(common, fc.boolean()).map(([c, correct]): QuizQuestion => ({ ...c, type: "true_false", correct })),
    fc
      .tuple(common, kit.texts(1, 3), fc.boolean())
      .map(([c, answers, cs]): QuizQuestion => ({ ...c, type: "short_text", accepted_answers: answers, case_sensitive: cs })),
    fc
      .tuple(
        common,
        numberArb,
        fc.integer({ min: 0, max: 500 }).map((n) => n / 100),
      )
      .map(([c, v, t]): QuizQuestion => ({ ...c, type: "numeric", correct_value: v, tolerance: t })),
    fc.tuple(common, listed([2, 5]), scoring).chain(([c, items, s]) =>
      fc
        .shuffledSubarray(
          items.map((i) => i.id),
          { minLength: items.length, maxLength: items.length },
        )
        .map((order): QuizQuestion => ({ ...c, type: "ordering", items, correct_order: order, scoring: s })),
    ),
    fc.tuple(common, listed([1, 4]), listed([1, 5]), scoring).chain(([c, prompts, choices, s]) =>
      fc.array(fc.constantFrom(...choices.map((x) => x.id)), { minLength: prompts.length, maxLength: prompts.length }).map(
        (picked): QuizQuestion => ({
          ...c,
          type: "matching",
          prompts,
          choices: kit === PLAIN ? choices.map((x) => ({ ...x, text: `to ${x.text}` })) : choices,
          correct_matches: Object.fromEntries(prompts.map((p, i) => [p.id, picked[i] ?? ""])),
          scoring: s,
        }),
      ),
    ),
    fc
      .tuple(
        common,
        fc.array(fc.tuple(piece, kit.texts(1, 2), fc.boolean()), { minLength: 1, maxLength: 3 }),
        piece,
        optional(piece),
        scoring,
      )
      .chain(([c, parts, lead, tail, s]) =>
        ids(parts.length).map(
          (blankIds): QuizQuestion => ({
            ...c,
            type: "fill_in_blanks",
            text: `${lead} ${parts.map(([before], i) => `${i > 0 ? `${before} ` : ""}{{${blankIds[i]}}}`).join(" ")}${tail ? ` ${tail}` : ""}`,
            blanks: parts.map(([, answers, cs], i) => ({
              id: blankIds[i] ?? `b${i}`,
              accepted_answers: answers,
              case_sensitive: cs,
            })),
            scoring: s,
          }),
        ),
      ),
    fc
      .tuple(common, optional(kit.lines), optional(fc.integer({ min: 1, max: 500 })))
      .map(
        ([c, rubric, maxWords]): QuizQuestion => ({ ...c, type: "essay", rubric: rubric ?? null, max_words: maxWords ?? null }),
      ),
  ];

  return fc.oneof(choiceArb, ...others);
}

export const quizQuestionArb: fc.Arbitrary<QuizQuestion> = questions(PLAIN);

/** The same questions with every format's metacharacters (and CR, LF, CRLF, tabs, no-break spaces) in every text. */
export const metaQuizQuestionArb: fc.Arbitrary<QuizQuestion> = questions(META_KIT);
